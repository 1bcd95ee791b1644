import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { eventTypeLabel } from '@/features/admin/audit/utils/event-types';
import { actorName } from '@/features/admin/components/actor-name';
import { type AuditDetail, AuditDetails } from '@/features/admin/components/audit-details';
import { AuditStep } from '@/features/admin/components/audit-step';
import { type TimelineEntry, useOrderTimeline } from '../api/get-order-timeline';
import { describeEvent, lineNames } from '../utils/describe-event';

function TimelineItem({ entry, lines }: { entry: TimelineEntry; lines: Map<string, string> }) {
  const summary = describeEvent(entry, lines);
  return (
    <AuditStep title={eventTypeLabel(entry.type)} at={entry.recordedAt} summary={summary}>
      <p className="text-xs text-muted-foreground">By {actorName(entry.actor)}</p>
      <AuditDetails
        details={[
          ['Event', entry.type, 'name'],
          ['Stream', `${entry.stream} #${entry.revision}`, 'id'],
          ...(entry.actor.type === 'customer'
            ? []
            : [['Recorded by (id)', entry.actor.id, 'id'] as AuditDetail]),
        ]}
      >
        <pre className="mt-2 max-w-full overflow-x-auto rounded-md bg-muted p-3 font-mono">
          {JSON.stringify(entry.data, null, 2)}
        </pre>
      </AuditDetails>
    </AuditStep>
  );
}

function TimelineList({ entries }: { entries: TimelineEntry[] }) {
  const lines = lineNames(entries);
  return (
    <ol aria-label="Order events, oldest first" className="ml-1">
      {entries.map((entry) => (
        <TimelineItem key={entry.id} entry={entry} lines={lines} />
      ))}
    </ol>
  );
}

/**
 * Every event of the order, oldest first: when, who and what (the audit trail; keys masked by the server).
 * It is read when the page opens and after a resend; the workers' later events need a refresh, since nothing polls.
 */
export function OrderTimeline({ orderId }: { orderId: string }) {
  const { data: entries, error, isPending, refetch, isRefetching } = useOrderTimeline(orderId);
  return (
    <Card aria-labelledby="order-timeline">
      <CardHeader className="flex-row items-center justify-between gap-4">
        <CardTitle id="order-timeline">Event timeline</CardTitle>
        <Button variant="outline" onClick={() => refetch()} disabled={isRefetching || isPending}>
          <RefreshCw aria-hidden="true" className={isRefetching ? 'size-4 animate-spin' : 'size-4'} />
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {error ? (
          <LoadError
            title="The timeline could not be loaded"
            error={error}
            onRetry={() => refetch()}
            retrying={isRefetching}
          />
        ) : isPending ? (
          <div className="grid gap-4">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} className="h-14" />
            ))}
          </div>
        ) : (
          <TimelineList entries={entries} />
        )}
      </CardContent>
    </Card>
  );
}
