// Uppy's styles load with this module, so only the back-office chunk that uploads images carries them.
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import Dashboard from '@uppy/react/dashboard';
import { Upload } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTheme } from '@/components/theme/use-theme';
import { Button } from '@/components/ui/button';
import { errorSentence } from '@/lib/api';
import { toast } from '@/lib/toast';
import { COULD_NOT_PROCESS, normalizeUpload } from '../api/object-uploads';
import { createImageUppy, type ImageUppy } from './create-uppy';

const uploadFailed = (description: string) =>
  toast({ title: 'Upload failed', description, variant: 'destructive' });

/** The chosen file's upload URL once it has been PUT, or why not. */
async function uploadChosenFile(uppy: ImageUppy): Promise<{ uploadURL: string } | { error: string }> {
  try {
    const result = await uppy.upload();
    const uploadURL = result?.successful?.[0]?.uploadURL;
    if (uploadURL) return { uploadURL };
    return { error: result?.failed?.[0]?.error ?? COULD_NOT_PROCESS };
  } catch (error) {
    return { error: error instanceof Error ? errorSentence(error) : COULD_NOT_PROCESS };
  }
}

/**
 * Pick one image (drop or browse), then Upload Image PUTs it to a signed URL and hands the stored object path
 * to the form as its image URL. Inline rather than Uppy's modal: a modal inside the product dialog
 * would fight it for focus and be clipped by its transform.
 */
export function ImageUploader({ onUploaded }: { onUploaded: (objectPath: string) => void }) {
  const { theme } = useTheme();
  // Created in an effect, not during render: StrictMode mounts twice, and each Uppy must be destroyed.
  const [uppy, setUppy] = useState<ImageUppy | null>(null);
  const [hasFile, setHasFile] = useState(false);
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    const instance = createImageUppy();
    // Every way the file list changes (added, removed, cleared after an upload) goes through a state update.
    instance.on('state-update', (_previous, next) => setHasFile(Object.keys(next.files).length > 0));
    setUppy(instance);
    return () => instance.destroy();
  }, []);

  const upload = async () => {
    if (!uppy) return;
    setUploading(true);
    try {
      const outcome = await uploadChosenFile(uppy);
      if ('error' in outcome) return uploadFailed(outcome.error);
      const objectPath = await normalizeUpload(outcome.uploadURL).catch(() => null);
      if (!objectPath) return uploadFailed(COULD_NOT_PROCESS);
      uppy.clear();
      onUploaded(objectPath);
      toast({ title: 'Image uploaded successfully' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="grid gap-2">
      {uppy && (
        <Dashboard
          uppy={uppy}
          height={200}
          width="100%"
          theme={theme}
          hideUploadButton
          proudlyDisplayPoweredByUppy={false}
          note="One image, up to 10 MB"
        />
      )}
      <Button
        variant="outline"
        onClick={upload}
        disabled={!hasFile || uploading}
        className="justify-self-start"
      >
        <Upload aria-hidden="true" className="size-4" />
        {uploading ? 'Uploading...' : 'Upload Image'}
      </Button>
    </div>
  );
}
