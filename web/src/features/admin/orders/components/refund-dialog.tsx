import type { RefundableUnitView } from '@licensestore/domain';
import { formatCents, toCents } from '@licensestore/domain/money';
import { Undo2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Label } from '@/components/ui/label';
import { isStale } from '@/lib/api';
import { formatPrice } from '@/lib/format';
import { useRefundableUnits, useRefundOrder } from '../api/refunds';

const CHECKBOX =
  'size-4 rounded border-border accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';
const TEXTAREA =
  'min-h-20 w-full rounded-md border border-border bg-background px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary aria-invalid:border-destructive sm:text-sm';

/** What refunding a unit does to its key, said before the admin confirms. */
const consequence = (unit: RefundableUnitView) =>
  unit.keyId === null
    ? 'No key yet: the order stops waiting for it.'
    : unit.leftStore
      ? 'Delivered: the key will be revoked.'
      : 'Not delivered: the key returns to stock.';

/** Refund chosen units (or the whole order) through PayPal, with a reason, after a confirmation naming the consequence. */
export function RefundDialog({ orderId, etag }: { orderId: string; etag: string | null }) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const units = useRefundableUnits(orderId, open);
  const refund = useRefundOrder(orderId, etag);
  const all = units.data ?? [];
  const picked = chosen.map((index) => all[index]).filter((unit) => unit !== undefined);
  const whole = all.length > 0 && picked.length === all.length;
  const amount = formatCents(picked.reduce((sum, unit) => sum + toCents(unit.unitPrice), 0));
  const revoked = picked.filter((unit) => unit.leftStore).length;
  const returned = picked.filter((unit) => unit.keyId !== null && !unit.leftStore).length;

  const close = () => {
    setOpen(false);
    setChosen([]);
    setReason('');
    setConfirming(false);
    setProblem(undefined);
  };
  const toggle = (index: number) =>
    setChosen(chosen.includes(index) ? chosen.filter((n) => n !== index) : [...chosen, index]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (picked.length === 0) return setProblem('Choose at least one unit to refund');
    if (!reason.trim()) return setProblem('Please give a reason for the refund');
    setProblem(undefined);
    if (!confirming) return setConfirming(true);
    const request = whole
      ? { all: true as const, reason }
      : { units: picked.map(({ lineId, keyId }) => ({ lineId, keyId })), reason };
    // Refused as stale, the dialog closes on the page that now shows what changed.
    refund.mutate(request, { onSuccess: close, onError: (error) => isStale(error) && close() });
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Undo2 aria-hidden="true" className="size-4" />
        Refund
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? setOpen(true) : close())}
        title="Refund"
        description="Refund chosen units, or the whole order, through PayPal. The money goes back to the buyer."
      >
        <form noValidate onSubmit={submit} className="grid gap-4">
          {units.isPending ? (
            <p className="text-sm text-muted-foreground">Loading units...</p>
          ) : units.error ? (
            <p className="text-sm text-destructive">{units.error.message}</p>
          ) : all.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Every unit is refunded or in a refund in progress.
            </p>
          ) : (
            <fieldset className="grid gap-2" disabled={confirming}>
              <legend className="mb-2 text-sm font-medium">Units</legend>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input
                  type="checkbox"
                  className={CHECKBOX}
                  checked={whole}
                  onChange={() => setChosen(whole ? [] : all.map((_, index) => index))}
                />
                Refund whole order
              </label>
              <ul className="grid gap-2">
                {all.map((unit, index) => (
                  <li key={`${unit.lineId}-${unit.keyId ?? index}`}>
                    <label className="flex items-start gap-2 rounded-md border border-border p-2 text-sm">
                      <input
                        type="checkbox"
                        className={`${CHECKBOX} mt-0.5`}
                        checked={chosen.includes(index)}
                        onChange={() => toggle(index)}
                      />
                      <span className="grid min-w-0 gap-0.5">
                        <span className="font-medium">
                          {unit.productName} · {formatPrice(unit.unitPrice)}
                        </span>
                        <code className="font-mono text-xs break-all">{unit.maskedKey ?? 'No key yet'}</code>
                        <span className="text-xs text-muted-foreground">{consequence(unit)}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <div className="grid gap-2">
            <Label htmlFor="refund-reason">Reason *</Label>
            <textarea
              id="refund-reason"
              value={reason}
              maxLength={500}
              disabled={confirming}
              onChange={(event) => setReason(event.target.value)}
              className={TEXTAREA}
            />
          </div>
          {problem && (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
          {confirming && (
            <div role="alert" className="grid gap-1 rounded-md border border-destructive/50 p-3 text-sm">
              <p className="font-medium">
                Refund {formatPrice(amount)} for {picked.length} unit{picked.length === 1 ? '' : 's'}?
              </p>
              {revoked > 0 && (
                <p>
                  {revoked === 1 ? 'The key will be revoked' : `${revoked} keys will be revoked`}: it was
                  delivered, so it can never be used or sold again.
                </p>
              )}
              {returned > 0 && (
                <p>
                  {returned === 1 ? 'The key returns to stock' : `${returned} keys return to stock`}: it never
                  left the store.
                </p>
              )}
            </div>
          )}
          <FormActions
            onCancel={confirming ? () => setConfirming(false) : close}
            cancelLabel={confirming ? 'Back' : 'Cancel'}
            submitLabel={confirming ? 'Confirm refund' : 'Refund'}
            busyLabel="Refunding..."
            busy={refund.isPending}
            disabled={all.length === 0}
          />
        </form>
      </Dialog>
    </>
  );
}
