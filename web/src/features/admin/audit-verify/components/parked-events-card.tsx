import type { ParkedEventView } from '@licensestore/domain/audit';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { type Columns, DataTable } from '@/components/ui/data-table';
import { LoadError } from '@/components/ui/load-error';
import { formatDateTime } from '@/lib/date-time';
import { useParkedEvents } from '../api/parked-events';

const MONO = 'break-all font-mono text-xs';
const COLUMNS: Columns<ParkedEventView> = [
  { header: 'Position', className: MONO, cell: (event) => event.position },
  { header: 'Stream', className: MONO, cell: (event) => event.streamId },
  { header: 'Type', cell: (event) => event.type },
  { header: 'Reason', className: 'text-sm', cell: (event) => event.reason },
  { header: 'Parked by', className: 'text-sm', cell: (event) => event.consumers.join(', ') },
  { header: 'First seen', cell: (event) => formatDateTime(event.firstSeenAt) },
];

const number = (n: number) => n.toLocaleString('en-US');

/**
 * The stored events that no longer read: the projectors and the reactor parked them and went on without them, so
 * the read models and the jobs lack whatever each would have changed. Each is a defect for an engineer to look at.
 */
export function ParkedEventsCard() {
  const { data, error, refetch, isRefetching } = useParkedEvents();
  if (error) {
    return (
      <LoadError
        title="The parked events could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  const total = data?.total ?? 0;
  return (
    <Card aria-busy={!data}>
      <CardHeader>
        <CardTitle>
          {!data
            ? 'Events that could not be read'
            : total === 0
              ? 'Every event of the log can be read'
              : `${number(total)} ${total === 1 ? 'event' : 'events'} could not be read`}
        </CardTitle>
      </CardHeader>
      {(!data || total > 0) && (
        <CardContent className="space-y-3">
          <p className="text-sm text-muted-foreground">
            The read models and the reactor passed over these events (they are parked): whatever each would
            have changed is missing until the code reads it again and the read models are rebuilt.
          </p>
          <DataTable
            label="Parked events"
            columns={COLUMNS}
            rows={data?.events}
            rowKey={(event) => event.eventId}
            empty="No event is parked."
          />
          {data && data.events.length < total && (
            <p className="text-sm text-muted-foreground">
              The first {number(data.events.length)} of {number(total)} are shown.
            </p>
          )}
        </CardContent>
      )}
    </Card>
  );
}
