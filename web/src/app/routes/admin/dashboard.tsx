import { Seo } from '@/components/seo/seo';
import { DashboardOverview } from '@/features/admin/dashboard/components/dashboard-overview';

/** Admin dashboard: the headline figures, recent orders and stock alerts. */
export default function AdminDashboardRoute() {
  return (
    <>
      <Seo title="Dashboard" description="Overview of your software marketplace." noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        <p className="text-muted-foreground">Overview of your software marketplace</p>
      </div>
      <DashboardOverview />
    </>
  );
}
