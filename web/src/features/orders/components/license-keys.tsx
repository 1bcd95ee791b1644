import type { OrderItemView, OrderKeyStatus } from '@licensestore/domain';
import { Copy, KeyRound, LockKeyhole } from 'lucide-react';
import { KeyStatusBadge } from '@/components/key-status-badge';
import { LicenseKeyText } from '@/components/license-key-text';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { SIGN_IN_URL } from '@/config/sign-in';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { formatPrice } from '@/lib/format';
import { ProductDownload } from './product-download';

function KeyLine({
  licenseKey,
  productName,
  status,
}: {
  licenseKey: string;
  productName: string;
  status: OrderKeyStatus | undefined;
}) {
  // A key no longer the customer's comes masked, marked with what became of it, and is not offered for copying.
  if (status && status !== 'valid') {
    return (
      <li className="flex items-center gap-2 rounded-md border border-border py-2 pr-2 pl-3">
        <LicenseKeyText
          licenseKey={licenseKey}
          className="min-w-0 flex-1 text-sm text-muted-foreground line-through"
        />
        <KeyStatusBadge status={status} audience="customer" />
      </li>
    );
  }
  return (
    <li className="flex items-center gap-2 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
      <LicenseKeyText licenseKey={licenseKey} className="min-w-0 flex-1 text-sm" />
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`Copy license key ${licenseKey} for ${productName}`}
        onClick={() => copyLicenseKey(licenseKey)}
      >
        <Copy aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

/**
 * Keys the server withholds from this visitor (it knows the order id, not more): where they went, and the two
 * ways to open them here.
 */
function WithheldKeysNotice({ customerEmail, linkRefused }: { customerEmail: string; linkRefused: boolean }) {
  return (
    <div
      role="note"
      className="mb-4 flex items-start gap-3 rounded-lg border border-border bg-muted/50 p-4 text-sm"
    >
      <LockKeyhole aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
      <div className="grid gap-1">
        {linkRefused && (
          <p className="font-medium text-destructive">This link does not open the keys of this order.</p>
        )}
        <p>
          Your license keys were sent to <strong className="break-words">{customerEmail}</strong>. Open the
          link in that email to see them here, or{' '}
          <a href={SIGN_IN_URL} className="font-medium text-primary underline underline-offset-4">
            sign in with that address
          </a>{' '}
          to see them under My Orders.
        </p>
      </div>
    </div>
  );
}

/** What a paid order's keys may still wait for before they are sent. */
export type KeysWaitFor = 'payment' | 'check';

const KEYS_WAIT_FOR: Record<KeysWaitFor, string> = {
  payment: 'License key will be emailed once PayPal completes the payment.',
  check: 'License key will be emailed once the order has been checked.',
};

/**
 * One line's keys: in clear, withheld (sent by email), or still to come (once paid, or after PayPal's review); none
 * come any more to an order cancelled or refunded.
 */
function LineKeys({
  item,
  waitingFor,
  noMoreKeys,
}: {
  item: OrderItemView;
  waitingFor: KeysWaitFor | undefined;
  noMoreKeys: boolean;
}) {
  if (item.keysWithheld) {
    return <p className="text-sm text-muted-foreground">License key sent by email.</p>;
  }
  const keys = item.licenseKeys ?? [];
  return (
    <>
      {keys.length > 0 && (
        <ul className="grid gap-2" aria-label={`License keys for ${item.productName}`}>
          {keys.map((key, index) => (
            <KeyLine
              key={key}
              licenseKey={key}
              productName={item.productName}
              status={item.keyStatuses?.[index]}
            />
          ))}
        </ul>
      )}
      {!noMoreKeys && keys.length < item.quantity - (item.refundedUnits ?? 0) && (
        <p className="text-sm text-muted-foreground italic">
          {waitingFor ? KEYS_WAIT_FOR[waitingFor] : 'License key will be emailed shortly...'}
        </p>
      )}
    </>
  );
}

/** Your License Keys: each line's keys as they are delivered (pushed by the server while the page is open). */
export function LicenseKeys({
  items,
  customerEmail,
  linkRefused = false,
  waitingFor,
  noMoreKeys = false,
}: {
  items: OrderItemView[];
  customerEmail: string;
  /** The page was opened with an email link that the server refused. */
  linkRefused?: boolean;
  /** What the keys still wait for: PayPal completing the payment, or the store's check of the order. */
  waitingFor?: KeysWaitFor;
  /** The order was cancelled or refunded: the keys it had were taken back and no more come. */
  noMoreKeys?: boolean;
}) {
  const withheld = items.some((item) => item.keysWithheld);
  return (
    <Card aria-labelledby="license-keys">
      <CardHeader>
        <CardTitle id="license-keys" className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-5 text-primary" />
          Your License Keys
        </CardTitle>
      </CardHeader>
      <CardContent>
        {(withheld || linkRefused) && (
          <WithheldKeysNotice customerEmail={customerEmail} linkRefused={linkRefused} />
        )}
        <ul className="grid gap-4">
          {items.map((item) => (
            <li key={item.id} className="grid gap-3 rounded-lg border border-border p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="font-medium">{item.productName}</p>
                  <p className="text-sm text-muted-foreground">Quantity: {item.quantity}</p>
                </div>
                <p className="font-medium tabular-nums">{formatPrice(item.price)}</p>
              </div>
              {/* Announced when keys arrive by themselves. */}
              <div aria-live="polite">
                <LineKeys item={item} waitingFor={waitingFor} noMoreKeys={noMoreKeys} />
              </div>
              <ProductDownload item={item} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
