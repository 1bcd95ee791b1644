import { Link, useParams } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { CustomerSummary } from '@/features/admin/customers/components/customer-summary';
import { OrdersTable } from '@/features/admin/orders/components/orders-table';
import { useListSearch } from '@/lib/list-search';

/** The router decodes a path only partly (`%40` stays): the address as it was before `customerHref` encoded it. */
function decodedSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** /admin/customers/:email: one customer and their orders, a page at a time (the page in the URL). */
export default function CustomerRoute() {
  const { email: segment = '' } = useParams<{ email: string }>();
  const email = decodedSegment(segment);
  const search = useListSearch();
  return (
    <>
      <Seo title="Customer" description="Customer details and orders" noindex />
      <Link href="/admin/customers" className="text-sm text-primary underline-offset-4 hover:underline">
        ← All customers
      </Link>
      <CustomerSummary email={email} />
      <h2 className="text-xl font-semibold">Orders</h2>
      <OrdersTable
        params={{ ...search.params, customer: email }}
        onPage={search.goTo}
        emptyText="This customer has no orders."
      />
    </>
  );
}
