import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { isNotFound } from '@/lib/api';
import { formatDateTime } from '@/lib/date-time';
import { formatPrice } from '@/lib/format';
import { useCustomer } from '../api/get-customers';

/** Who the customer is and what they bought in sum; their orders are listed beside it. */
export function CustomerSummary({ email }: { email: string }) {
  const { data: customer, error, isPending, refetch, isRefetching } = useCustomer(email);
  if (error) {
    if (isNotFound(error)) {
      return (
        <div role="alert" className="rounded-lg border border-border bg-card p-6">
          <h1 className="text-2xl font-bold">Customer not found</h1>
          <p className="text-muted-foreground">No order was placed with {email}.</p>
        </div>
      );
    }
    return (
      <LoadError
        title="The customer could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  if (isPending) return <Skeleton className="h-40 w-full" />;
  const facts = [
    ['Email', customer.email],
    ['Orders', String(customer.orderCount)],
    ['Total spent', formatPrice(customer.totalSpent)],
    ['Last order', formatDateTime(customer.lastOrderDate)],
  ];
  return (
    <Card>
      <CardHeader>
        <h1 className="text-3xl font-bold tracking-tight">{customer.name}</h1>
        <p className="text-muted-foreground">Customer</p>
      </CardHeader>
      <CardContent>
        <CardTitle className="sr-only">Summary</CardTitle>
        <dl className="grid gap-4 sm:grid-cols-4">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt className="text-sm text-muted-foreground">{term}</dt>
              <dd className="font-medium tabular-nums break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
