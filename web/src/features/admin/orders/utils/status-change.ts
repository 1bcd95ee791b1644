/** What the admin is asked before a status change that does more than relabel the order. */
export interface StatusChangeQuestion {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  busyLabel: string;
  /** Cancelling destroys keys; reopening serves the order; marking a paid order pending only relabels it. */
  tone: 'destructive' | 'primary';
}

/** An order whose money the store holds: `processing` (keys on their way) or `completed` (delivered). */
const PAID_STATUSES: ReadonlySet<string> = new Set(['processing', 'completed']);

/**
 * Cancelling releases the order's keys for good, reopening a cancelled order hands it new keys and emails the
 * buyer, and setting a paid order back to pending tells the buyer it is not paid: each is asked with its
 * consequence. Any other change only relabels the order and is asked nothing.
 */
export function statusChangeQuestion(from: string, to: string, number: string): StatusChangeQuestion | null {
  if (to === 'cancelled') {
    return {
      title: `Cancel order ${number}?`,
      description:
        'Its license keys are released: a key already delivered is revoked and can never be used again, any other ' +
        'returns to stock. No money goes back to the buyer (use Refund for that). Reopening it later gives it new keys.',
      confirmLabel: 'Cancel order',
      cancelLabel: 'Keep order',
      busyLabel: 'Cancelling...',
      tone: 'destructive',
    };
  }
  if (from === 'cancelled') {
    return {
      title: `Reopen order ${number}?`,
      description:
        'The order is served again as a paid one: it takes new license keys from stock and emails them to the ' +
        'buyer in a new delivery email (its old keys stay released; a revoked key never comes back). If stock ' +
        'is out, it waits in line until keys are imported.',
      confirmLabel: 'Reopen order',
      cancelLabel: 'Keep cancelled',
      busyLabel: 'Reopening...',
      tone: 'primary',
    };
  }
  if (to === 'pending' && PAID_STATUSES.has(from)) {
    return {
      title: `Set paid order ${number} back to Pending?`,
      description:
        'The order was paid. Pending changes only its label: no money moves, no email is sent and its license ' +
        'keys keep working, but the buyer and the lists show it as not yet paid until it is set back to Completed.',
      confirmLabel: 'Set to Pending',
      cancelLabel: `Keep ${from === 'completed' ? 'Completed' : 'Processing'}`,
      busyLabel: 'Changing...',
      tone: 'primary',
    };
  }
  return null;
}
