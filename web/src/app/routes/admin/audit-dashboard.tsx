import { Seo } from '@/components/seo/seo';
import { DashboardAsOfScreen } from '@/features/admin/audit/components/dashboard-as-of-screen';

/** /admin/audit/dashboard: the dashboard's figures as of a chosen moment. */
export default function AuditDashboardRoute() {
  return (
    <>
      <Seo title="Dashboard As Of" description="The dashboard's figures at a moment in the past" noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Dashboard As Of</h1>
        <p className="text-muted-foreground">
          The figures as they stood at a moment, folded from the event log
        </p>
      </div>
      <DashboardAsOfScreen />
    </>
  );
}
