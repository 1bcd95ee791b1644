import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Copy, History, Lock } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderRow,
  TableMessageRow,
  TableRow,
  TableSkeletonRows,
} from '@/components/ui/table';
import { copyLicenseKey } from '@/lib/copy-license-key';
import { useReadOnly } from '../../auth/api/admin-status';
import { type LicenseKeyView, useLicenseKeys } from '../api/get-license-keys';
import { type KeyFilter, matchesFilter, PAGE_SIZE, pageOf } from '../utils/filter-keys';
import { DeleteLicenseKeyButton } from './delete-license-key-button';
import { KeyFilters } from './key-filters';
import { Pager } from './pager';

const COLUMNS = ['Product', 'License Key', 'Status', 'Order ID', 'Actions'];
/** An auditor's table: keys come masked (the server's choice) and nothing can be deleted. */
const READ_ONLY_COLUMNS = COLUMNS.filter((column) => column !== 'Actions');

/** Enough of the key to tell rows apart in button names, without reading the whole key out every time. */
const shortKey = (key: string | null) => (key ? `ending ${key.slice(-5)}` : 'that cannot be read');

function KeyRow({ licenseKey, readOnly }: { licenseKey: LicenseKeyView; readOnly: boolean }) {
  const product = licenseKey.productName ?? 'Deleted product';
  const label = `${shortKey(licenseKey.key)} of ${product}`;
  return (
    <TableRow>
      <TableCell className="min-w-40 font-medium">{product}</TableCell>
      <TableCell>
        <div className="flex items-center gap-1">
          <code className="font-mono text-sm whitespace-nowrap">{licenseKey.key ?? 'Unreadable key'}</code>
          {/* An assigned key comes masked: it opens only through its order's recorded reveal. */}
          {licenseKey.key && !readOnly && !licenseKey.assigned && (
            <Button
              variant="ghost"
              className="size-9 shrink-0 p-0"
              aria-label={`Copy license key ${label}`}
              onClick={() => copyLicenseKey(licenseKey.key as string)}
            >
              <Copy aria-hidden="true" className="size-4" />
            </Button>
          )}
          <Link
            href={`/admin/license-keys/${licenseKey.id}`}
            aria-label={`History of license key ${label}`}
            className={buttonClasses('ghost', 'size-9 shrink-0 p-0')}
          >
            <History aria-hidden="true" className="size-4" />
          </Link>
        </div>
      </TableCell>
      <TableCell>
        <span
          className={
            licenseKey.assigned
              ? 'inline-flex rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold'
              : 'inline-flex rounded-full bg-success px-2.5 py-0.5 text-xs font-semibold text-success-foreground'
          }
        >
          {licenseKey.assigned ? 'Assigned' : 'Available'}
        </span>
      </TableCell>
      <TableCell className="font-mono whitespace-nowrap">
        {licenseKey.orderId ? orderNumber(licenseKey.orderId) : '-'}
      </TableCell>
      {!readOnly && (
        <TableCell>
          {licenseKey.assigned ? (
            // Assigned keys belong to a customer's order (spec section 4): nothing to delete, and the reason shown.
            <span className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-muted-foreground">
              <Lock aria-hidden="true" className="size-3.5" />
              Assigned keys cannot be deleted
            </span>
          ) : (
            <DeleteLicenseKeyButton keyId={licenseKey.id} label={label} />
          )}
        </TableCell>
      )}
    </TableRow>
  );
}

/** The inventory, filtered by product and status, a page at a time (spec section 2, License Keys). */
export function LicenseKeysTable() {
  const { data: keys, error, isPending, refetch, isRefetching } = useLicenseKeys();
  const readOnly = useReadOnly();
  const columns = readOnly ? READ_ONLY_COLUMNS : COLUMNS;
  const [filter, setFilter] = useState<KeyFilter>({ productId: 'all', status: 'all' });
  const [page, setPage] = useState(0);

  if (error) {
    return (
      <LoadError
        title="The license keys could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  const matching = (keys ?? []).filter(matchesFilter(filter));
  const shown = pageOf(matching, page);
  return (
    <div className="grid gap-4">
      <KeyFilters
        keys={keys ?? []}
        filter={filter}
        onChange={(next) => {
          setFilter(next);
          setPage(0);
        }}
      />
      <Table aria-label="License keys" aria-busy={isPending}>
        <TableHeader>
          <TableHeaderRow columns={columns} />
        </TableHeader>
        <TableBody>
          {isPending ? (
            <TableSkeletonRows columns={columns} />
          ) : keys.length === 0 ? (
            <TableMessageRow colSpan={columns.length}>
              No license keys yet. Add license keys to enable automatic delivery.
            </TableMessageRow>
          ) : matching.length === 0 ? (
            <TableMessageRow colSpan={columns.length}>No license keys match these filters.</TableMessageRow>
          ) : (
            shown.rows.map((key) => <KeyRow key={key.id} licenseKey={key} readOnly={readOnly} />)
          )}
        </TableBody>
      </Table>
      {matching.length > PAGE_SIZE && (
        <Pager page={shown.page} pages={shown.pages} total={matching.length} onPage={setPage} />
      )}
    </div>
  );
}
