import type { ReviewView } from '@licensestore/contract/risk';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { BusyButton, Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderRow,
  TableMessageRow,
  TableRow,
} from '@/components/ui/table';
import { formatPrice } from '@/lib/format';
import { useReviewDecision } from '../api/reviews';

/** How each rule that held an order reads in the queue. */
export const RULE_LABELS: Record<ReviewView['rules'][number], string> = {
  'order-total': 'Order total',
  'first-order': 'First order',
  'velocity-orders': 'Many orders from one address',
  'velocity-emails': 'Many emails from one address',
  'blocked-email-domain': 'Blocked email domain',
  'product-quantity': 'Quantity of one product',
};

const COLUMNS = ['Order', 'Buyer', 'Amount', 'Reasons', 'Held', 'Client address', 'Actions'] as const;

const heldAtText = (heldAt: string) =>
  new Date(heldAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Why an order is rejected: asked in a dialog, as the buyer's e-mail and the order's timeline say it. */
function RejectDialog({ review, onClose }: { review: ReviewView | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const decision = useReviewDecision();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!review) return;
    decision.mutate({ orderId: review.orderId, reason }, { onSettled: onClose });
  };
  return (
    <Dialog
      open={review !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={review ? `Reject order ${orderNumber(review.orderId)}` : 'Reject order'}
      description="The payment is refunded in full, the license keys go back to stock and the buyer is emailed the reason."
    >
      <form onSubmit={submit} className="grid gap-4">
        <FormField id="reject-reason" label="Reason">
          {(control) => (
            <textarea
              {...control}
              required
              rows={3}
              maxLength={400}
              className="rounded-md border border-border bg-background px-3 py-2 text-sm"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </FormField>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton type="submit" variant="destructive" busy={decision.isPending} busyLabel="Rejecting...">
            Reject and refund
          </BusyButton>
        </div>
      </form>
    </Dialog>
  );
}

/** The queue's orders, each with what the reviewer weighs and, for admins, the two decisions. */
export function ReviewsTable({ reviews, readOnly }: { reviews: ReviewView[]; readOnly: boolean }) {
  const approve = useReviewDecision();
  const [rejecting, setRejecting] = useState<ReviewView | null>(null);
  const columns = readOnly ? COLUMNS.slice(0, -1) : COLUMNS;
  return (
    <>
      <Table aria-label="Orders held for review">
        <TableHeader>
          <TableHeaderRow columns={columns} />
        </TableHeader>
        <TableBody>
          {reviews.length === 0 && (
            <TableMessageRow colSpan={columns.length}>No orders are waiting for review.</TableMessageRow>
          )}
          {reviews.map((review) => (
            <TableRow key={review.orderId}>
              <TableCell>
                <Link
                  href={`/admin/orders/${review.orderId}`}
                  className="font-mono text-primary underline-offset-4 hover:underline"
                >
                  {orderNumber(review.orderId)}
                </Link>
              </TableCell>
              <TableCell>
                <div>{review.customerName}</div>
                <div className="text-xs text-muted-foreground">{review.customerEmail}</div>
                <div className="text-xs text-muted-foreground">
                  {review.buyer.otherOrders} other orders, {review.buyer.refundedOrders} refunded
                </div>
              </TableCell>
              <TableCell className="tabular-nums">{formatPrice(review.total)}</TableCell>
              <TableCell>
                <ul className="flex flex-wrap gap-1">
                  {review.rules.map((rule) => (
                    <li key={rule}>
                      <Badge variant="outline">{RULE_LABELS[rule]}</Badge>
                    </li>
                  ))}
                </ul>
              </TableCell>
              <TableCell>
                <div>{heldAtText(review.heldAt)}</div>
                {review.overdue && <Badge variant="sale">Overdue</Badge>}
              </TableCell>
              <TableCell className="text-xs">
                {review.client ? (
                  <>
                    <div className="font-mono">{review.client.hash}…</div>
                    <div className="text-muted-foreground">
                      {review.client.ordersLastDay} orders, {review.client.emailsLastDay} emails in 24 h
                    </div>
                  </>
                ) : (
                  <span className="text-muted-foreground">Unknown</span>
                )}
              </TableCell>
              {!readOnly && (
                <TableCell>
                  {review.reviewStatus === 'held' && (
                    <div className="flex gap-2">
                      <BusyButton
                        busy={approve.isPending && approve.variables?.orderId === review.orderId}
                        busyLabel="Approving..."
                        onClick={() => approve.mutate({ orderId: review.orderId })}
                        aria-label={`Approve order ${orderNumber(review.orderId)}`}
                      >
                        Approve
                      </BusyButton>
                      <Button
                        variant="outline"
                        onClick={() => setRejecting(review)}
                        aria-label={`Reject order ${orderNumber(review.orderId)}`}
                      >
                        Reject
                      </Button>
                    </div>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <RejectDialog
        key={rejecting?.orderId ?? 'none'}
        review={rejecting}
        onClose={() => setRejecting(null)}
      />
    </>
  );
}
