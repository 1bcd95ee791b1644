import { cn } from '@/lib/cn';
import { Button } from './button';

/**
 * A form's last row: a button that leaves it, then the submit button, which says what is happening while the form
 * is sent and takes no second press until it is done.
 */
export function FormActions({
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel,
  busyLabel,
  busy,
  disabled = false,
  className,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** Not ready to send yet (nothing chosen). */
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div className={cn('flex justify-end gap-2', className)}>
      <Button variant="outline" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" disabled={busy || disabled}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </div>
  );
}
