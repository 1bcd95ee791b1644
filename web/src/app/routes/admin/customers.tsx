import { Seo } from '@/components/seo/seo';
import { CustomersScreen } from '@/features/admin/customers/components/customers-screen';

/** Customers: who bought, how often, how much, and when last; searched a page at a time. */
export default function CustomersRoute() {
  return (
    <>
      <Seo title="Customers" description="View customer information and order history" noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Customers</h1>
        <p className="text-muted-foreground">View customer information and order history</p>
      </div>
      <CustomersScreen />
    </>
  );
}
