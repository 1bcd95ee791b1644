import type { KeyListItem } from '@licensestore/contract/license-keys';
import { orderNumber } from '@licensestore/domain/orders/order-number';
import { Lock } from 'lucide-react';
import { KeyHistoryLink } from '@/components/key-history-link';
import { RevealableLicenseKey } from '@/components/revealable-license-key';
import type { Columns } from '@/components/ui/data-table';
import { PagedTable } from '@/components/ui/paged-table';
import { clearFilters, useListSearch } from '@/lib/list-search';
import { useReadOnly } from '../../auth/api/admin-status';
import { useKeyPage } from '../api/get-license-keys';
import { DeleteLicenseKeyButton } from './delete-license-key-button';
import { KEY_FILTERS, KeyFilters } from './key-filters';

const STATUS_LABELS: Record<KeyListItem['status'], string> = {
  available: 'Available',
  assigned: 'Assigned',
  revoked: 'Revoked',
};

const KEY_TEXT = 'font-mono text-sm whitespace-nowrap';

/** Enough of the key to tell rows apart in button names: the last characters the mask shows. */
const shortKey = (key: string | null) => (key ? `ending ${key.slice(-4)}` : 'that cannot be read');
const productName = (licenseKey: KeyListItem) => licenseKey.productName ?? 'Deleted product';
const keyLabel = (licenseKey: KeyListItem) => `${shortKey(licenseKey.key)} of ${productName(licenseKey)}`;

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

/** An auditor's table reveals nothing: the key shows masked, as the server sends it. */
const columns = (readOnly: boolean): Columns<KeyListItem> => [
  { header: 'Product', className: 'min-w-40 font-medium', cell: productName },
  {
    header: 'License Key',
    cell: (licenseKey) => (
      <KeyText licenseKey={licenseKey} name={`license key ${keyLabel(licenseKey)}`} readOnly={readOnly} />
    ),
  },
  {
    header: 'Status',
    cell: (licenseKey) => (
      <span
        className={
          licenseKey.status === 'available'
            ? 'inline-flex rounded-full bg-success px-2.5 py-0.5 text-xs font-semibold text-success-foreground'
            : 'inline-flex rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold'
        }
      >
        {STATUS_LABELS[licenseKey.status]}
      </span>
    ),
  },
  {
    header: 'Order ID',
    className: 'font-mono whitespace-nowrap',
    cell: (licenseKey) => (licenseKey.orderId ? orderNumber(licenseKey.orderId) : '-'),
  },
];

function KeyActions({ licenseKey }: { licenseKey: KeyListItem }) {
  if (licenseKey.status === 'available') {
    return <DeleteLicenseKeyButton keyId={licenseKey.id} label={keyLabel(licenseKey)} />;
  }
  // A sold key belongs to a customer's order (or was taken back from one): nothing to delete, and why.
  return (
    <span className="inline-flex items-center gap-1.5 text-xs whitespace-nowrap text-muted-foreground">
      <Lock aria-hidden="true" className="size-3.5" />
      {STATUS_LABELS[licenseKey.status]} keys cannot be deleted
    </span>
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
        columns={columns(readOnly)}
        // An auditor deletes nothing.
        actions={readOnly ? undefined : (licenseKey) => <KeyActions licenseKey={licenseKey} />}
        query={useKeyPage(search.params)}
        errorTitle="The license keys could not be loaded"
        emptyText="No license keys yet. Add license keys to enable automatic delivery."
        noMatchText="No license keys match these filters."
        onClearFilters={clear}
        onPage={search.goTo}
        rowKey={(licenseKey) => licenseKey.id}
      />
    </div>
  );
}
