import type { VerificationView } from '@licensestore/shared/audit-verify';
import { Button } from '@/components/ui/button';
import { QueryTable } from '@/components/ui/query-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/date-time';
import { useVerifications } from '../api/verifications';
import { VerificationStatusBadge } from './verification-status-badge';

const COLUMNS = ['Started', 'By', 'Status', 'Rows differing', 'Actions'];

const differing = (run: VerificationView) =>
  run.report?.tables.reduce((sum, table) => sum + table.missing + table.extra + table.different, 0);

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
      renderRow={(run) => (
        <TableRow key={run.id} aria-current={run.id === selected ? 'true' : undefined}>
          <TableCell className="whitespace-nowrap">{formatDateTime(run.requestedAt)}</TableCell>
          <TableCell>{run.requestedBy}</TableCell>
          <TableCell>
            <VerificationStatusBadge status={run.status} />
          </TableCell>
          <TableCell className="tabular-nums">{differing(run)?.toLocaleString('en-US') ?? '–'}</TableCell>
          <TableCell>
            <Button
              variant="ghost"
              aria-label={`Show the run of ${formatDateTime(run.requestedAt)}`}
              onClick={() => onSelect(run.id)}
              disabled={run.id === selected}
            >
              Show
            </Button>
          </TableCell>
        </TableRow>
      )}
    />
  );
}
