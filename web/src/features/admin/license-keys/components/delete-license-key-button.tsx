import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { IconButton } from '@/components/ui/icon-button';
import { useDeleteLicenseKey } from '../api/delete-license-key';

/** Deletes an available key once the admin confirms that it cannot be undone. */
export function DeleteLicenseKeyButton({ keyId, label }: { keyId: string; label: string }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteLicenseKey();
  return (
    <>
      <IconButton
        icon={Trash2}
        tone="destructive"
        label={`Delete license key ${label}`}
        onClick={() => setConfirming(true)}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete license key"
        description="Are you sure you want to delete this license key? This action cannot be undone."
        busy={remove.isPending}
        onConfirm={() => remove.mutate(keyId, { onSettled: () => setConfirming(false) })}
      />
    </>
  );
}
