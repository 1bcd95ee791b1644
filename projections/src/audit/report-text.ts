import type { Mismatch, Row, TableComparison, VerifyReport } from '@licensestore/domain/audit-verify';

const number = (n: number) => n.toLocaleString('en-US');

const COLUMNS: Array<{ title: string; value: (table: TableComparison) => string }> = [
  { title: 'projector', value: (table) => table.projector },
  { title: 'table', value: (table) => table.table },
  { title: 'rows live', value: (table) => number(table.liveRows) },
  { title: 'rows replayed', value: (table) => number(table.replayedRows) },
  { title: 'missing', value: (table) => number(table.missing) },
  { title: 'extra', value: (table) => number(table.extra) },
  { title: 'different', value: (table) => number(table.different) },
];

/** The summary as a plain-text table, text columns left-aligned and counts right-aligned. */
export function summaryTable(tables: readonly TableComparison[]): string {
  const cells = tables.map((table) => COLUMNS.map((column) => column.value(table)));
  const widths = COLUMNS.map((column, i) =>
    Math.max(column.title.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, i) => (i < 2 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0)))
      .join(' | ')
      .trimEnd();
  return [
    line(COLUMNS.map((column) => column.title)),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...cells.map(line),
  ].join('\n');
}

const shown = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));
const keyText = (key: Row) =>
  Object.entries(key)
    .map(([column, value]) => `${column}=${String(value)}`)
    .join(', ');

/** One mismatch: the row, what differs, and the events behind it. */
export function mismatchText(mismatch: Mismatch): string {
  const { live, replayed } = mismatch;
  const head = `${mismatch.projector}/${mismatch.table} ${keyText(mismatch.key)}: `;
  const lines =
    mismatch.kind === 'missing'
      ? [`${head}missing from the live table (the replay has it)`]
      : mismatch.kind === 'extra'
        ? [`${head}extra in the live table (no event leads to it)`]
        : [
            `${head}${mismatch.columns.length === 1 ? 'one column differs' : `${mismatch.columns.length} columns differ`}`,
            ...mismatch.columns.map(
              (column) =>
                `    ${column}: live ${shown(live?.[column])}, replayed ${shown(replayed?.[column])}`,
            ),
          ];
  if (mismatch.behind === 'whole-log') {
    lines.push('  events behind it: every event of the log (a counter over the whole store)');
  } else if (mismatch.behind === 'unknown') {
    lines.push(
      `  events behind it: not known (${mismatch.projector} does not name the streams behind its rows)`,
    );
  } else if (mismatch.events.length === 0) {
    lines.push('  events behind it: none');
  } else {
    lines.push(
      `  events behind it${mismatch.earlierEvents > 0 ? ` (the latest ${mismatch.events.length}; ${number(mismatch.earlierEvents)} earlier not shown)` : ''}:`,
    );
    for (const event of mismatch.events) {
      lines.push(`    ${event.at}  ${event.position}  ${event.stream}  ${event.type}`);
    }
  }
  return lines.join('\n');
}

export function reportText(report: VerifyReport): string {
  const rate = Math.round(report.events / Math.max(report.replayMs / 1000, 0.001));
  const parts = [
    `replayed ${number(report.events)} events up to ${report.position ?? 'the start of the log'} ` +
      `in ${(report.replayMs / 1000).toFixed(1)} s (${number(rate)} events/s); compared:`,
    ...report.projectors.map(
      (projector) =>
        `  ${projector.name} at ${projector.position ?? 'the start of the log'}` +
        (projector.eventsAfterReplay > 0
          ? ` (the live model was ${number(projector.eventsAfterReplay)} events ahead; replayed them too)`
          : ''),
    ),
    '',
    summaryTable(report.tables),
    '',
  ];
  const unreadable = report.unreadable ?? [];
  if (unreadable.length > 0) {
    parts.push(
      `${number(unreadable.length)} event${unreadable.length === 1 ? '' : 's'} of the log do${unreadable.length === 1 ? 'es' : ''} not read; every projector passed ${unreadable.length === 1 ? 'it' : 'them'} (parked):`,
      ...unreadable.map(
        (event) => `    ${event.at}  ${event.position}  ${event.stream}  ${event.type}: ${event.reason}`,
      ),
      '',
    );
  }
  const total = report.mismatches.length + report.unshownMismatches;
  if (report.passed) {
    parts.push('every read model matches the replay of the log');
  } else {
    parts.push(`${number(total)} row${total === 1 ? '' : 's'} differ:`, '');
    for (const mismatch of report.mismatches) parts.push(mismatchText(mismatch), '');
    if (report.unshownMismatches > 0) parts.push(`… and ${number(report.unshownMismatches)} more not shown`);
  }
  return parts.join('\n');
}
