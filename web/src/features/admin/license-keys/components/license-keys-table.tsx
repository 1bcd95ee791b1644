import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Copy, Eye, EyeOff, History, Lock } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button, buttonClasses } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Pager } from '@/components/ui/pager';
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
import { useListSearch } from '@/lib/list-search';
import { useReadOnly } from '../../auth/api/admin-status';
import { type KeyListItem, useKeyPage } from '../api/get-license-keys';
import { useRevealInventoryKey } from '../api/reveal-license-key';
import { DeleteLicenseKeyButton } from './delete-license-key-button';
import { KeyFilters } from './key-filters';

const COLUMNS = ['Product', 'License Key', 'Status', 'Order ID', 'Actions'];
/** An auditor's table: nothing to open and nothing to delete. */
const READ_ONLY_COLUMNS = COLUMNS.filter((column) => column !== 'Actions');

const STATUS_LABELS: Record<KeyListItem['status'], string> = {
  available: 'Available',
  assigned: 'Assigned',
  revoked: 'Revoked',
};

/** Enough of the key to tell rows apart in button names: the last characters the mask shows. */
const shortKey = (key: string | null) => (key ? `ending ${key.slice(-4)}` : 'that cannot be read');

/**
 * The key as the server sends it, masked. An admin reveals or copies it on purpose, which fetches it in clear and
 * records the showing on the key's history: the inventory is opened with screens shared too.
 */
function KeyText({
  licenseKey,
  label,
  readOnly,
}: {
  licenseKey: KeyListItem;
  label: string;
  readOnly: boolean;
}) {
  const [clear, setClear] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const reveal = useRevealInventoryKey();
  /** The key in clear: fetched (and recorded) once, then kept while the row is on screen. */
  const inClear = async () => {
    if (clear) return clear;
    const key = await reveal.mutateAsync(licenseKey.id);
    setClear(key);
    return key;
  };
  const opens = !readOnly && licenseKey.key !== null;
  return (
    <div className="flex items-center gap-1">
      <code className="font-mono text-sm whitespace-nowrap">
        {shown && clear ? clear : (licenseKey.key ?? 'Unreadable key')}
      </code>
      {opens && (
        <>
          <Button
            variant="ghost"
            className="size-9 shrink-0 p-0"
            aria-label={`${shown ? 'Hide' : 'Reveal'} license key ${label}`}
            aria-pressed={shown}
            disabled={reveal.isPending}
            onClick={async () => {
              if (shown) setShown(false);
              else if (await inClear().catch(() => null)) setShown(true);
            }}
          >
            {shown ? (
              <EyeOff aria-hidden="true" className="size-4" />
            ) : (
              <Eye aria-hidden="true" className="size-4" />
            )}
          </Button>
          <Button
            variant="ghost"
            className="size-9 shrink-0 p-0"
            aria-label={`Copy license key ${label}`}
            disabled={reveal.isPending}
            onClick={async () => {
              const key = await inClear().catch(() => null);
              if (key) await copyLicenseKey(key);
            }}
          >
            <Copy aria-hidden="true" className="size-4" />
          </Button>
        </>
      )}
      <Link
        href={`/admin/license-keys/${licenseKey.id}`}
        aria-label={`History of license key ${label}`}
        className={buttonClasses('ghost', 'size-9 shrink-0 p-0')}
      >
        <History aria-hidden="true" className="size-4" />
      </Link>
    </div>
  );
}

function KeyRow({ licenseKey, readOnly }: { licenseKey: KeyListItem; readOnly: boolean }) {
  const product = licenseKey.productName ?? 'Deleted product';
  const label = `${shortKey(licenseKey.key)} of ${product}`;
  const available = licenseKey.status === 'available';
  return (
    <TableRow>
      <TableCell className="min-w-40 font-medium">{product}</TableCell>
      <TableCell>
        <KeyText licenseKey={licenseKey} label={label} readOnly={readOnly} />
      </TableCell>
      <TableCell>
        <span
          className={
            available
              ? 'inline-flex rounded-full bg-success px-2.5 py-0.5 text-xs font-semibold text-success-foreground'
              : 'inline-flex rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold'
          }
        >
          {STATUS_LABELS[licenseKey.status]}
        </span>
      </TableCell>
      <TableCell className="font-mono whitespace-nowrap">
        {licenseKey.orderId ? orderNumber(licenseKey.orderId) : '-'}
      </TableCell>
      {!readOnly && (
        <TableCell>
          {available ? (
            <DeleteLicenseKeyButton keyId={licenseKey.id} label={label} />
          ) : (
            // A sold key belongs to a customer's order (or was taken back from one): nothing to delete, and why.
            <span className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-muted-foreground">
              <Lock aria-hidden="true" className="size-3.5" />
              {STATUS_LABELS[licenseKey.status]} keys cannot be deleted
            </span>
          )}
        </TableCell>
      )}
    </TableRow>
  );
}

/** The inventory a page at a time, filtered on the server; filters and page live in the URL. */
export function LicenseKeysTable() {
  const search = useListSearch();
  const { data: page, error, isPending, isFetching, refetch, isRefetching } = useKeyPage(search.params);
  const readOnly = useReadOnly();
  const columns = readOnly ? READ_ONLY_COLUMNS : COLUMNS;
  const filtered = Boolean(search.params.product || search.params.status || search.params.q);

  const filters = <KeyFilters filters={search.params} onChange={search.update} />;
  if (error) {
    // The filters stay: a search the server refuses (400) is fixed where it was typed.
    return (
      <div className="grid gap-4">
        {filters}
        <LoadError
          title="The license keys could not be loaded"
          error={error}
          onRetry={() => refetch()}
          retrying={isRefetching}
        />
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      {filters}
      <Table aria-label="License keys" aria-busy={isFetching}>
        <TableHeader>
          <TableHeaderRow columns={columns} />
        </TableHeader>
        <TableBody>
          {isPending ? (
            <TableSkeletonRows columns={columns} />
          ) : page.items.length === 0 ? (
            <TableMessageRow colSpan={columns.length}>
              {filtered
                ? 'No license keys match these filters.'
                : 'No license keys yet. Add license keys to enable automatic delivery.'}
            </TableMessageRow>
          ) : (
            page.items.map((key) => <KeyRow key={key.id} licenseKey={key} readOnly={readOnly} />)
          )}
        </TableBody>
      </Table>
      <Pager label="License key pages" page={page} onPage={search.goTo} busy={isFetching} />
    </div>
  );
}
