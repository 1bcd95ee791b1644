import { orderNumber } from '@licensestore/shared/orders/order-number';
import { Lock } from 'lucide-react';
import { KeyHistoryLink } from '@/components/key-history-link';
import { RevealableLicenseKey } from '@/components/revealable-license-key';
import { PagedTable } from '@/components/ui/paged-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { clearFilters, useListSearch } from '@/lib/list-search';
import { useReadOnly } from '../../auth/api/admin-status';
import { type KeyListItem, useKeyPage } from '../api/get-license-keys';
import { DeleteLicenseKeyButton } from './delete-license-key-button';
import { KEY_FILTERS, KeyFilters } from './key-filters';

const COLUMNS = ['Product', 'License Key', 'Status', 'Order ID', 'Actions'];
/** An auditor's table: nothing to open and nothing to delete. */
const READ_ONLY_COLUMNS = COLUMNS.filter((column) => column !== 'Actions');

const STATUS_LABELS: Record<KeyListItem['status'], string> = {
  available: 'Available',
  assigned: 'Assigned',
  revoked: 'Revoked',
};

const KEY_TEXT = 'font-mono text-sm whitespace-nowrap';

/** Enough of the key to tell rows apart in button names: the last characters the mask shows. */
const shortKey = (key: string | null) => (key ? `ending ${key.slice(-4)}` : 'that cannot be read');

/**
 * The key as the server sends it, masked, which an admin reveals or copies on purpose: the inventory is opened
 * with screens shared too.
 */
function KeyText({
  licenseKey,
  name,
  readOnly,
}: {
  licenseKey: KeyListItem;
  name: string;
  readOnly: boolean;
}) {
  return (
    <div className="flex items-center gap-1">
      {!readOnly && licenseKey.key !== null ? (
        <RevealableLicenseKey
          keyId={licenseKey.id}
          maskedKey={licenseKey.key}
          name={name}
          className={KEY_TEXT}
        />
      ) : (
        <code className={KEY_TEXT}>{licenseKey.key ?? 'Unreadable key'}</code>
      )}
      <KeyHistoryLink keyId={licenseKey.id} name={name} />
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
        <KeyText licenseKey={licenseKey} name={`license key ${label}`} readOnly={readOnly} />
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
  const readOnly = useReadOnly();
  const clear = clearFilters(search, KEY_FILTERS);
  return (
    <div className="grid gap-4">
      {/* The filters stay when the list fails: a search the server refuses (400) is fixed where it was typed. */}
      <KeyFilters filters={search.params} onChange={search.update} />
      <PagedTable
        label="License keys"
        pagesLabel="License key pages"
        columns={readOnly ? READ_ONLY_COLUMNS : COLUMNS}
        query={useKeyPage(search.params)}
        errorTitle="The license keys could not be loaded"
        emptyText="No license keys yet. Add license keys to enable automatic delivery."
        noMatchText="No license keys match these filters."
        onClearFilters={clear}
        onPage={search.goTo}
        renderRow={(key) => <KeyRow key={key.id} licenseKey={key} readOnly={readOnly} />}
      />
    </div>
  );
}
