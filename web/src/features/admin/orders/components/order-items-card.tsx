import type { OrderItemView, OrderKeyStatus } from '@licensestore/domain';
import { KeyHistoryLink } from '@/components/key-history-link';
import { KeyStatusBadge } from '@/components/key-status-badge';
import { RevealableLicenseKey } from '@/components/revealable-license-key';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatPrice } from '@/lib/format';
import { useReadOnly } from '../../auth/api/admin-status';
import { useOrderItems } from '../api/get-orders';

const KEY_TEXT = 'min-w-0 flex-1 font-mono text-sm break-all';

/**
 * A delivered key, masked as the server sends it to the back office, which an admin reveals or copies on purpose.
 * An auditor's keys stay masked, and so do keys no longer the customer's: nothing to reveal, nothing worth
 * copying. The history is there to read for every key.
 */
function KeyLine({
  maskedKey,
  keyId,
  unit,
  productName,
  status,
}: {
  maskedKey: string;
  keyId: string | undefined;
  unit: number;
  productName: string;
  status: OrderKeyStatus | undefined;
}) {
  const readOnly = useReadOnly();
  const name = `license key ${unit} of ${productName}`;
  const opens = !readOnly && keyId && (!status || status === 'valid');
  return (
    <li className="flex items-center gap-1 rounded-md border border-border bg-muted/50 py-1 pr-1 pl-3">
      {opens ? (
        <RevealableLicenseKey keyId={keyId} maskedKey={maskedKey} name={name} className={KEY_TEXT} />
      ) : (
        <code className={KEY_TEXT}>{maskedKey}</code>
      )}
      <KeyStatusBadge status={status} audience="admin" />
      {keyId && <KeyHistoryLink keyId={keyId} name={name} />}
    </li>
  );
}

function ItemRow({ item }: { item: OrderItemView }) {
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
              <ItemRow key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
