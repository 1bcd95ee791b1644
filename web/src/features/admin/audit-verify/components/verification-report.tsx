import type { Mismatch, VerifyReport } from '@licensestore/domain/audit-verify';
import { type Columns, DataTable } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/date-time';

const number = (n: number) => n.toLocaleString('en-US');
type TableCompared = VerifyReport['tables'][number];
const COUNT = 'text-right tabular-nums';
const COLUMNS: Columns<TableCompared> = [
  { header: 'Projector', cell: (table) => table.projector },
  { header: 'Table', className: 'font-mono text-sm', cell: (table) => table.table },
  { header: 'Rows live', className: COUNT, cell: (table) => number(table.liveRows) },
  { header: 'Rows replayed', className: COUNT, cell: (table) => number(table.replayedRows) },
  { header: 'Missing', className: COUNT, cell: (table) => number(table.missing) },
  { header: 'Extra', className: COUNT, cell: (table) => number(table.extra) },
  { header: 'Different', className: COUNT, cell: (table) => number(table.different) },
];

const KIND_TEXT: Record<Mismatch['kind'], string> = {
  missing: 'missing from the live table (the replay has it)',
  extra: 'extra in the live table (no event leads to it)',
  different: 'differs',
};

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
const keyText = (key: Mismatch['key']) =>
  Object.entries(key)
    .map(([column, value]) => `${column} = ${String(value)}`)
    .join(', ');

function MismatchItem({ mismatch }: { mismatch: Mismatch }) {
  return (
    <li className="space-y-2 rounded-lg border border-border bg-card p-4">
      <p className="font-medium">
        <span className="font-mono text-sm">
          {mismatch.projector}/{mismatch.table}
        </span>{' '}
        <span className="break-all font-mono text-sm">{keyText(mismatch.key)}</span>:{' '}
        {KIND_TEXT[mismatch.kind]}
      </p>
      {mismatch.kind === 'different' && (
        <ul className="space-y-1 text-sm">
          {mismatch.columns.map((column) => (
            <li key={column} className="break-all">
              <span className="font-mono">{column}</span>: live {shown(mismatch.live?.[column])}, replayed{' '}
              {shown(mismatch.replayed?.[column])}
            </li>
          ))}
        </ul>
      )}
      <div className="text-sm">
        <p className="text-muted-foreground">
          {mismatch.behind === 'whole-log'
            ? 'Events behind it: every event of the log (a counter over the whole store).'
            : mismatch.behind === 'unknown'
              ? 'Events behind it: not known for this read model.'
              : mismatch.events.length === 0
                ? 'Events behind it: none.'
                : `Events behind it${mismatch.earlierEvents > 0 ? ` (the latest ${mismatch.events.length}; ${number(mismatch.earlierEvents)} earlier not shown)` : ''}:`}
        </p>
        {mismatch.events.length > 0 && (
          <ol className="mt-1 space-y-0.5 font-mono text-xs">
            {mismatch.events.map((event) => (
              <li key={`${event.stream} ${event.position}`} className="break-all">
                {formatDateTime(event.at)} · {event.type} · {event.stream} · {event.position}
              </li>
            ))}
          </ol>
        )}
      </div>
    </li>
  );
}

/** What a finished run found: every table's counts, then each differing row with the events behind it. */
export function VerificationReport({ report }: { report: VerifyReport }) {
  const total = report.mismatches.length + report.unshownMismatches;
  const unreadable = report.unreadable ?? [];
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        Replayed {number(report.events)} events in {(report.replayMs / 1000).toFixed(1)} s; the whole check
        took {(report.durationMs / 1000).toFixed(1)} s.
      </p>
      <DataTable
        label="Tables compared"
        columns={COLUMNS}
        rows={report.tables}
        rowKey={(table) => `${table.projector}/${table.table}`}
        rowMarks={(table) =>
          table.missing + table.extra + table.different > 0 ? { className: 'bg-destructive/10' } : {}
        }
        empty="No read model was compared."
      />
      {unreadable.length > 0 && (
        <section aria-labelledby="unreadable-heading" className="space-y-2">
          <h3 id="unreadable-heading" className="text-lg font-semibold">
            {number(unreadable.length)} {unreadable.length === 1 ? 'event does' : 'events do'} not read
          </h3>
          <p className="text-sm text-muted-foreground">
            The live read models and the replay both passed over {unreadable.length === 1 ? 'it' : 'them'}.
          </p>
          <ol className="space-y-0.5 font-mono text-xs">
            {unreadable.map((event) => (
              <li key={event.position} className="break-all">
                {formatDateTime(event.at)} · {event.type} · {event.stream} · {event.position}: {event.reason}
              </li>
            ))}
          </ol>
        </section>
      )}
      {total > 0 && (
        <section aria-labelledby="mismatches-heading" className="space-y-3">
          <h3 id="mismatches-heading" className="text-lg font-semibold">
            {number(total)} {total === 1 ? 'row differs' : 'rows differ'}
          </h3>
          <ul className="space-y-3">
            {report.mismatches.map((mismatch) => (
              <MismatchItem
                key={`${mismatch.table} ${mismatch.kind} ${JSON.stringify(mismatch.key)}`}
                mismatch={mismatch}
              />
            ))}
          </ul>
          {report.unshownMismatches > 0 && (
            <p className="text-sm text-muted-foreground">
              … and {number(report.unshownMismatches)} more not shown (run npm run audit:verify for the same
              check).
            </p>
          )}
        </section>
      )}
    </div>
  );
}
