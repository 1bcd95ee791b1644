import type { OrderItemView, OrderKeyStatus } from '@licensestore/shared';
import { Copy, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { KeyStatusBadge } from '@/components/key-status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { useOrderItems } from '../api/get-orders';
import { maskKey } from '../utils/mask-key';

/**
 * A delivered key, masked until the admin reveals it: order pages are opened while talking to a customer, often
 * with the screen shared, and a key on screen is a key given away. Copy works without revealing.
 */
function KeyLine({
  licenseKey,
  unit,
  productName,
  status,
}: {
  licenseKey: string;
  unit: number;
  productName: string;
  status: OrderKeyStatus | undefined;
}) {
  const [revealed, setRevealed] = useState(false);
  const readOnly = useReadOnly();
  const name = `license key ${unit} of ${productName}`;
  if (readOnly || (status && status !== 'valid')) {
    // An auditor's keys, and keys no longer the customer's, come masked from the server: nothing to reveal.
    return (
      <li className="flex items-center gap-2 rounded-md border border-border bg-muted/50 px-3 py-2">
        <code className="min-w-0 flex-1 font-mono text-sm break-all">{licenseKey}</code>
        <KeyStatusBadge status={status} audience="admin" />
      </li>
    );
  }
  return (
    <li className="flex items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
      <code className="min-w-0 flex-1 font-mono text-sm break-all">
        {revealed ? licenseKey : maskKey(licenseKey)}
      </code>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`${revealed ? 'Hide' : 'Reveal'} ${name}`}
        aria-pressed={revealed}
        onClick={() => setRevealed(!revealed)}
      >
        {revealed ? (
          <EyeOff aria-hidden="true" className="size-4" />
        ) : (
          <Eye aria-hidden="true" className="size-4" />
        )}
      </Button>
      <Button
        variant="ghost"
        className="size-9 shrink-0 p-0"
        aria-label={`Copy ${name}`}
        onClick={() => copyLicenseKey(licenseKey)}
      >
        <Copy aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

function ItemRow({ item }: { item: OrderItemView }) {
  // The back office always gets the keys (auditors masked); a line without the field has none.
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
              key={key}
              licenseKey={key}
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
              <ItemRow key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
