import { BusyButton } from '@/components/ui/button';
import { errorSentence } from '@/lib/api';

/** The one button of a page that waits for the visitor's own press, and what went wrong when it failed. */
export function ConfirmButton({
  label,
  busyLabel,
  busy,
  error,
  onConfirm,
}: {
  label: string;
  busyLabel: string;
  busy: boolean;
  error: Error | null;
  onConfirm: () => void;
}) {
  return (
    <div className="grid gap-3">
      <BusyButton className="w-full" busy={busy} busyLabel={busyLabel} onClick={onConfirm}>
        {label}
      </BusyButton>
      {error && (
        <p role="alert" className="text-center text-sm text-destructive">
          {errorSentence(error)}
        </p>
      )}
    </div>
  );
}
