import { FileArchive } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { apiRequest, errorSentence } from '@/lib/api';
import { saveDownload } from '@/lib/download-file';
import { toast } from '@/lib/toast';

/**
 * Downloads the order's dispute evidence pack (a zip: a PDF and the signed events; keys masked), for admins and
 * auditors alike. Fetched rather than linked, so a refusal (no signing key set) is told in a toast, not a raw page.
 */
export function EvidencePackButton({ orderId }: { orderId: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      // The server names the pack after the order.
      await saveDownload(
        await apiRequest('GET', `/api/orders/${encodeURIComponent(orderId)}/evidence`),
        'evidence.zip',
      );
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
