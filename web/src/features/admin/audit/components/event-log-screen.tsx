import type { AuditEventView } from '@licensestore/domain/audit';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import type { Columns } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { actorLabel } from '@/features/admin/orders/utils/describe-event';
import { formatDateTime } from '@/lib/date-time';
import { useListSearch } from '@/lib/list-search';
import { type EventLogFilters, noFilters, useAuditEventRows, useAuditEvents } from '../api/get-audit-events';
import { eventTypeLabel } from '../utils/event-types';
import { EventFilters } from './event-filters';

const PREVIEW = 40;
const ORDER_STREAM = /^order-([0-9a-f-]{36})$/i;

/** `order-ad270cf8-c289-…` → `order-ad270cf8…`: the table stays readable; the whole id is in the title. */
const shortStream = (stream: string) => stream.replace(/^([^-]+-[^-]{8}).{9,}$/, '$1…');

const linkClasses =
  'rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary';

/** An order's stream links to its history and state as of a moment. */
function Stream({ stream }: { stream: string }) {
  const orderId = ORDER_STREAM.exec(stream)?.[1];
  return (
    <span className="font-mono text-xs" title={stream}>
      {orderId ? (
        <Link href={`/admin/audit/orders/${orderId}`} aria-label={stream} className={linkClasses}>
          {shortStream(stream)}
        </Link>
      ) : (
        shortStream(stream)
      )}
    </span>
  );
}

function EventData({ data }: { data: AuditEventView['data'] }) {
  const preview = JSON.stringify(data);
  return (
    <details className="text-xs">
      <summary className="cursor-pointer truncate rounded-sm font-mono text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary">
        {preview.length > PREVIEW ? `${preview.slice(0, PREVIEW)}…` : preview}
      </summary>
      {/* Wrapped, never cut or scrolled out of sight: an auditor reads every value of the event. */}
      <pre className="mt-2 rounded-md bg-muted p-3 font-mono whitespace-pre-wrap [overflow-wrap:anywhere]">
        {JSON.stringify(data, null, 2)}
      </pre>
    </details>
  );
}

const COLUMNS: Columns<AuditEventView> = [
  {
    header: 'Time',
    className: 'whitespace-nowrap tabular-nums',
    cell: (event) => <time dateTime={event.recordedAt}>{formatDateTime(event.recordedAt)}</time>,
  },
  { header: 'Actor', className: 'text-sm', cell: (event) => actorLabel(event.actor) },
  {
    header: 'Type',
    cell: (event) => (
      <>
        <span className="block font-medium">{eventTypeLabel(event.type)}</span>
        {/* The stored type, as the filters and the exported log name it: a detail, kept whole. */}
        <span className="block font-mono text-xs text-muted-foreground whitespace-nowrap">{event.type}</span>
      </>
    ),
  },
  { header: 'Stream', className: 'whitespace-nowrap', cell: (event) => <Stream stream={event.stream} /> },
  { header: 'Data', className: 'max-w-xs', cell: (event) => <EventData data={event.data} /> },
];

const FILTER_NAMES = Object.keys(noFilters) as Array<keyof EventLogFilters>;
/**
 * The URL parameter holding the cursors of the pages before this one, oldest first: the log pages by cursor and has
 * no page numbers, so Previous goes back to the one before and a reload or a shared link shows the same page.
 */
const TRAIL_PARAM = 'pages';
const TRAIL_SEPARATOR = ' ';

/**
 * The store-wide event log, newest first, filtered on the server and paged by cursor: Next asks for the events
 * before the last one shown, Previous goes back to the cursor of the page before. Filters and page live in the URL.
 */
export function EventLogScreen() {
  const search = useListSearch();
  const filters: EventLogFilters = { ...noFilters };
  for (const name of FILTER_NAMES) filters[name] = search.params[name] ?? '';
  const trail = search.params[TRAIL_PARAM]?.split(TRAIL_SEPARATOR).filter(Boolean) ?? [];
  const before = trail.at(-1) ?? null;
  const page = useAuditEvents(filters, before);
  const rows = useAuditEventRows(filters, before);
  const next = page.data?.next ?? null;
  const showTrail = (cursors: string[]) => search.update({ [TRAIL_PARAM]: cursors.join(TRAIL_SEPARATOR) });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardContent className="pt-6">
          <EventFilters
            // Filters changed by the URL (back, a link) start the form again from them.
            key={JSON.stringify(filters)}
            filters={filters}
            onApply={(applied) => search.update({ ...applied, [TRAIL_PARAM]: null })}
          />
        </CardContent>
      </Card>
      <QueryTable
        label="Events, newest first"
        columns={COLUMNS}
        query={rows}
        errorTitle="The event log could not be loaded"
        emptyText="No events match these filters."
        rowKey={(event) => event.id}
      />
      <nav aria-label="Event log pages" className="flex items-center justify-between gap-4">
        <Button
          variant="outline"
          disabled={trail.length === 0 || page.isFetching}
          onClick={() => showTrail(trail.slice(0, -1))}
        >
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </Button>
        <span className="text-sm text-muted-foreground" aria-live="polite">
          Page {trail.length + 1}
        </span>
        <Button
          variant="outline"
          disabled={!next || page.isFetching}
          onClick={() => next && showTrail([...trail, next])}
        >
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </nav>
    </div>
  );
}
