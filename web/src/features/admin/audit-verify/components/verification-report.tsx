import type { Mismatch, VerifyReport } from '@licensestore/shared/audit-verify';
import { Table, TableBody, TableCell, TableHeader, TableHeaderRow, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/date-time';

const number = (n: number) => n.toLocaleString('en-US');
const COLUMNS = ['Projector', 'Table', 'Rows live', 'Rows replayed', 'Missing', 'Extra', 'Different'];

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
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        Replayed {number(report.events)} events in {(report.replayMs / 1000).toFixed(1)} s; the whole check
        took {(report.durationMs / 1000).toFixed(1)} s.
      </p>
      <Table aria-label="Tables compared">
        <TableHeader>
          <TableHeaderRow columns={COLUMNS} />
        </TableHeader>
        <TableBody>
          {report.tables.map((table) => {
            const differs = table.missing + table.extra + table.different > 0;
            return (
              <TableRow
                key={`${table.projector}/${table.table}`}
                className={differs ? 'bg-destructive/10' : ''}
              >
                <TableCell>{table.projector}</TableCell>
                <TableCell className="font-mono text-sm">{table.table}</TableCell>
                <TableCell className="text-right tabular-nums">{number(table.liveRows)}</TableCell>
                <TableCell className="text-right tabular-nums">{number(table.replayedRows)}</TableCell>
                <TableCell className="text-right tabular-nums">{number(table.missing)}</TableCell>
                <TableCell className="text-right tabular-nums">{number(table.extra)}</TableCell>
                <TableCell className="text-right tabular-nums">{number(table.different)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
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
