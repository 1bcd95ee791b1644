import { Seo } from '@/components/seo/seo';
import { EventLogScreen } from '@/features/admin/audit/components/event-log-screen';

/** /admin/audit/events: every event of the store, newest first, filtered and paged. */
export default function AuditEventsRoute() {
  return (
    <>
      <Seo title="Event Log" description="Every event the store recorded" noindex />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Event Log</h1>
        <p className="text-muted-foreground">Every event the store recorded, newest first</p>
      </div>
      <EventLogScreen />
    </>
  );
}
