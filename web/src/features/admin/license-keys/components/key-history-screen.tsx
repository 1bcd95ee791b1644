import { orderNumber } from '@licensestore/domain/orders/order-number';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { AuditDetails } from '@/features/admin/components/audit-details';
import { AuditStep } from '@/features/admin/components/audit-step';
import { isNotFound } from '@/lib/api';
import { type KeyHistoryEntry, type KeyHistoryView, useKeyHistory } from '../api/get-key-history';
import { describeKeyStep } from '../utils/describe-key-step';

const LINK =
  'rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

function Step({ entry }: { entry: KeyHistoryEntry }) {
  const { title, summary, details } = describeKeyStep(entry);
  return (
    <AuditStep title={title} at={entry.at} summary={summary}>
      <AuditDetails details={details} />
    </AuditStep>
  );
}

/** 'available' → 'Available': the inventory's status word as a label. */
const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

function KeySummary({ history }: { history: KeyHistoryView }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Product', history.productName ?? 'Deleted product'],
    [
      'License key',
      history.key ? (
        <code key="key" className="font-mono whitespace-nowrap">
          {history.key}
        </code>
      ) : (
        'Removed from the inventory'
      ),
    ],
    ['Status', history.status ? statusLabel(history.status) : 'N/A'],
    [
      'Order',
      history.orderId ? (
        <Link key="order" href={`/admin/orders/${history.orderId}`} className={LINK}>
          {orderNumber(history.orderId)}
        </Link>
      ) : (
        'None'
      ),
    ],
  ];
  return (
    <Card aria-labelledby="key-summary">
      <CardHeader>
        <CardTitle id="key-summary">The key</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * One license key's custody, oldest first, each step a plain sentence naming who did it (the ids behind it one
 * click away): imported, assigned, delivered, every time it was shown in clear, and what happened to it after. The
 * key is masked for everyone.
 */
export function KeyHistoryScreen({ keyId }: { keyId: string }) {
  const { data: history, error, isPending, refetch, isRefetching } = useKeyHistory(keyId);
  const notFound = isNotFound(error);
  return (
    <>
      <Link href="/admin/license-keys" className={buttonClasses('ghost', 'w-fit -ml-3')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to license keys
      </Link>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">License key history</h1>
        <p className="font-mono text-sm break-all text-muted-foreground">{keyId}</p>
      </div>
      {notFound ? (
        <div className="rounded-lg border border-border bg-card p-8 text-center">
          <h2 className="text-2xl font-bold">License Key Not Found</h2>
          <p className="mt-2 text-muted-foreground">No license key with this id was ever in the inventory.</p>
        </div>
      ) : error ? (
        <LoadError
          title="The history could not be loaded"
          error={error}
          onRetry={() => refetch()}
          retrying={isRefetching}
        />
      ) : isPending ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Skeleton className="h-48" />
          <Skeleton className="h-64" />
        </div>
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <KeySummary history={history} />
          <Card aria-labelledby="key-steps">
            <CardHeader>
              <CardTitle id="key-steps">What happened to it</CardTitle>
            </CardHeader>
            <CardContent>
              {history.entries.length === 0 ? (
                <p className="text-muted-foreground">Nothing recorded yet.</p>
              ) : (
                <ol aria-label="Key history, oldest first" className="ml-1">
                  {history.entries.map((entry) => (
                    <Step key={`${entry.position}-${entry.kind}`} entry={entry} />
                  ))}
                </ol>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </>
  );
}
