import { FileArchive } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { apiRequest, errorSentence } from '@/lib/api';
import { toast } from '@/lib/toast';

/** The file name the server gives the pack (Content-Disposition names it after the order). */
const fileName = (response: Response) =>
  /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'evidence.zip';

/**
 * Downloads the order's dispute evidence pack (a zip: a PDF and the signed events; keys masked), for admins and
 * auditors alike. Fetched rather than linked, so a refusal (no signing key set) is told in a toast, not a raw page.
 */
export function EvidencePackButton({ orderId }: { orderId: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const response = await apiRequest('GET', `/api/orders/${encodeURIComponent(orderId)}/evidence`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName(response);
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast({
        title: 'The evidence pack could not be made',
        description: error instanceof Error ? errorSentence(error) : String(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" className="w-fit" onClick={download} disabled={busy}>
      <FileArchive aria-hidden="true" className="size-4" />
      {busy ? 'Preparing evidence pack…' : 'Download evidence pack'}
    </Button>
  );
}
