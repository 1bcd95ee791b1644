/** What the admin is asked before a status change that does more than relabel the order. */
export interface StatusChangeQuestion {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  busyLabel: string;
  /** Cancelling destroys keys; reopening serves the order. */
  tone: 'destructive' | 'primary';
}

/**
 * Cancelling releases the order's keys for good, and reopening a cancelled order hands it new keys and e-mails the
 * buyer: both are asked with their consequence. Any other change only relabels the order and is asked nothing.
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
        'The order is served again as a paid one: it takes new license keys from stock and e-mails them to the ' +
        'buyer in a new delivery e-mail (its old keys stay released; a revoked key never comes back). If stock ' +
        'is out, it waits in line until keys are imported.',
      confirmLabel: 'Reopen order',
      cancelLabel: 'Keep cancelled',
      busyLabel: 'Reopening...',
      tone: 'primary',
    };
  }
  return null;
}
