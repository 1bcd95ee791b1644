import type { OrderItemView, OrderKeyStatus } from '@licensestore/shared';
import { Copy, Eye, EyeOff, History } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { KeyStatusBadge } from '@/components/key-status-badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { useOrderItems } from '../api/get-orders';
import { useRevealLicenseKey } from '../api/reveal-license-key';

/** The link to a key's custody history (imported, assigned, delivered, each reveal). */
function KeyHistoryLink({ keyId, name }: { keyId: string; name: string }) {
  return (
    <Link
      href={`/admin/license-keys/${keyId}`}
      aria-label={`History of ${name}`}
      className={buttonClasses('ghost', 'size-9 shrink-0 p-0')}
    >
      <History aria-hidden="true" className="size-4" />
    </Link>
  );
}

/**
 * A delivered key, masked as the server sends it to the back office. An admin reveals or copies it on purpose,
 * which fetches it in clear and is recorded on the key's history: order pages are opened while talking to a
 * customer, often with the screen shared, and a key on screen is a key given away.
 */
function KeyLine({
  orderId,
  maskedKey,
  keyId,
  unit,
  productName,
  status,
}: {
  orderId: string;
  maskedKey: string;
  keyId: string | undefined;
  unit: number;
  productName: string;
  status: OrderKeyStatus | undefined;
}) {
  const [clear, setClear] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const readOnly = useReadOnly();
  const reveal = useRevealLicenseKey(orderId);
  const name = `license key ${unit} of ${productName}`;
  const history = keyId ? <KeyHistoryLink keyId={keyId} name={name} /> : null;
  if (readOnly || !keyId || (status && status !== 'valid')) {
    // An auditor's keys are masked, and so are keys no longer the customer's: nothing to reveal, nothing worth
    // copying; the history is there to read.
    return (
      <li className="flex items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
        <code className="min-w-0 flex-1 font-mono text-sm break-all">{maskedKey}</code>
        <KeyStatusBadge status={status} audience="admin" />
        {history}
      </li>
    );
  }
  /** The key in clear: fetched (and recorded) once, then kept while the page shows this order. */
  const inClear = async () => {
    if (clear) return clear;
    const key = await reveal.mutateAsync(keyId);
    setClear(key);
    return key;
  };
  return (
    <li className="flex items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
      <code className="min-w-0 flex-1 font-mono text-sm break-all">{shown && clear ? clear : maskedKey}</code>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`${shown ? 'Hide' : 'Reveal'} ${name}`}
        aria-pressed={shown}
        disabled={reveal.isPending}
        onClick={async () => {
          if (shown) setShown(false);
          else if (await inClear().catch(() => null)) setShown(true);
        }}
      >
        {shown ? (
          <EyeOff aria-hidden="true" className="size-4" />
        ) : (
          <Eye aria-hidden="true" className="size-4" />
        )}
      </Button>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`Copy ${name}`}
        disabled={reveal.isPending}
        onClick={async () => {
          const key = await inClear().catch(() => null);
          if (key) await copyLicenseKey(key);
        }}
      >
        <Copy aria-hidden="true" className="size-4" />
      </Button>
      {history}
    </li>
  );
}

function ItemRow({ orderId, item }: { orderId: string; item: OrderItemView }) {
  // The back office always gets the keys masked, with their ids; a line without the field has none.
  const keys = item.licenseKeys ?? [];
  const refunded = item.refundedUnits ?? 0;
  // A refunded unit is owed nothing, whether its key went back or never came.
  const owed = Math.max(0, item.quantity - refunded - keys.length);
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="font-medium">{item.productName}</p>
          <p className="text-sm text-muted-foreground">
            Quantity: {item.quantity}
            {refunded > 0 && ` · ${refunded} refunded`}
          </p>
        </div>
        <p className="shrink-0 font-medium tabular-nums">{formatPrice(item.price)}</p>
      </div>
      {keys.length > 0 && (
        <ul className="grid gap-2" aria-label={`License keys of ${item.productName}`}>
          {keys.map((key, index) => (
            <KeyLine
              key={item.licenseKeyIds?.[index] ?? key}
              orderId={orderId}
              maskedKey={key}
              keyId={item.licenseKeyIds?.[index] || undefined}
              unit={index + 1}
              productName={item.productName}
              status={item.keyStatuses?.[index]}
            />
          ))}
        </ul>
      )}
      {owed > 0 && (
        <p className="text-sm text-muted-foreground italic">
          {owed === item.quantity
            ? 'No license key yet'
            : `${owed} more license key${owed === 1 ? '' : 's'} to come`}
        </p>
      )}
    </li>
  );
}

/** The order's lines with the keys delivered for them. */
export function OrderItemsCard({ orderId }: { orderId: string }) {
  const { data: items, error, isPending, refetch, isRefetching } = useOrderItems(orderId);
  return (
    <Card aria-labelledby="order-items">
      <CardHeader>
        <CardTitle id="order-items">Items and license keys</CardTitle>
      </CardHeader>
      <CardContent>
        {error ? (
          <LoadError
            title="The items could not be loaded"
            error={error}
            onRetry={() => refetch()}
            retrying={isRefetching}
          />
        ) : isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-24" />
            <Skeleton className="h-24" />
          </div>
        ) : items.length === 0 ? (
          <p className="text-muted-foreground">No items found</p>
        ) : (
          <ul className="grid gap-3">
            {items.map((item) => (
              <ItemRow key={item.id} orderId={orderId} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
