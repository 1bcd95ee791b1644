import { useReadOnly } from '../../auth/api/admin-status';
import { ScreenSubtitle } from '../../components/screen-subtitle';
import { AddLicenseKeyDialog } from './add-license-key-dialog';
import { ImportLicenseKeysDialog } from './import-license-keys-dialog';
import { LicenseKeysTable } from './license-keys-table';
import { StockSummary } from './stock-summary';

/** License Keys: stock per product, then the keys, with add, import, copy and delete. */
export function LicenseKeysScreen() {
  const readOnly = useReadOnly();
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">License Keys</h1>
          <ScreenSubtitle
            admin="Manage product license keys inventory"
            readOnly="Browse the product license keys inventory (read-only)"
          />
        </div>
        {!readOnly && (
          <div className="flex flex-wrap gap-2">
            <ImportLicenseKeysDialog />
            <AddLicenseKeyDialog />
          </div>
        )}
      </div>
      <StockSummary />
      <LicenseKeysTable />
    </>
  );
}
