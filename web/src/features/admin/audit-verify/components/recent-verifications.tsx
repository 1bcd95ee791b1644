import type { VerificationView } from '@licensestore/domain/audit-verify';
import { Button } from '@/components/ui/button';
import type { Columns } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { formatDateTime } from '@/lib/date-time';
import { useVerifications } from '../api/verifications';
import { VerificationStatusBadge } from './verification-status-badge';

const differing = (run: VerificationView) =>
  run.report?.tables.reduce((sum, table) => sum + table.missing + table.extra + table.different, 0);

const COLUMNS: Columns<VerificationView> = [
  { header: 'Started', className: 'whitespace-nowrap', cell: (run) => formatDateTime(run.requestedAt) },
  { header: 'By', cell: (run) => run.requestedBy },
  { header: 'Status', cell: (run) => <VerificationStatusBadge status={run.status} /> },
  {
    header: 'Rows differing',
    className: 'tabular-nums',
    cell: (run) => differing(run)?.toLocaleString('en-US') ?? '–',
  },
];

/** The latest runs, newest first; each opens above. */
export function RecentVerifications({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <QueryTable
      label="Recent verifications"
      columns={COLUMNS}
      query={useVerifications()}
      errorTitle="The recent verifications could not be loaded"
      emptyText="No verification has run yet."
      rowKey={(run) => run.id}
      rowMarks={(run) => (run.id === selected ? { 'aria-current': 'true' } : {})}
      actions={(run) => (
        <Button
          variant="ghost"
          aria-label={`Show the run of ${formatDateTime(run.requestedAt)}`}
          onClick={() => onSelect(run.id)}
          disabled={run.id === selected}
        >
          Show
        </Button>
      )}
    />
  );
}
