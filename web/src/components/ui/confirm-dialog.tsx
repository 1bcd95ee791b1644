import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { buttonClasses } from './button';

/**
 * Asks before something that cannot be undone. Focus starts on Cancel, so an
 * Enter pressed by habit does not delete. `tone` is the confirm button's: red
 * for what destroys, the primary colour for what serves (reopening an order).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busyLabel = 'Deleting...',
  busy = false,
  tone = 'destructive',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel?: string;
  cancelLabel?: string;
  busyLabel?: string;
  busy?: boolean;
  tone?: 'destructive' | 'primary';
  onConfirm: () => void;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 flex w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-4 rounded-lg border border-border bg-background p-6 shadow-lg">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-muted-foreground">
            {description}
          </AlertDialog.Description>
          <div className="flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClasses('outline')}>{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClasses(tone)}
              disabled={busy}
              onClick={(event) => {
                // The caller closes the dialog when the change has been made (or shows why not).
                event.preventDefault();
                onConfirm();
              }}
            >
              {busy ? busyLabel : confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
