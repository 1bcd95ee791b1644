import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import type { LicenseKeyView } from '../api/get-license-keys';
import type { KeyFilter, StatusFilter } from '../utils/filter-keys';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: 'available', label: 'Available' },
  { value: 'assigned', label: 'Assigned' },
];

/** The products that have keys, by name: a filter offers only what it can find. */
function productOptions(keys: LicenseKeyView[]) {
  const names = new Map<string, string>();
  for (const key of keys) names.set(key.productId, key.productName ?? 'Deleted product');
  return [
    { value: 'all', label: 'All products' },
    ...[...names].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label)),
  ];
}

export function KeyFilters({
  keys,
  filter,
  onChange,
}: {
  keys: LicenseKeyView[];
  filter: KeyFilter;
  onChange: (filter: KeyFilter) => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="grid w-full gap-1.5 sm:w-64">
        <Label htmlFor="key-filter-product">Product</Label>
        <Select
          id="key-filter-product"
          value={filter.productId}
          onValueChange={(productId) => onChange({ ...filter, productId })}
          options={productOptions(keys)}
        />
      </div>
      <div className="grid w-full gap-1.5 sm:w-44">
        <Label htmlFor="key-filter-status">Status</Label>
        <Select
          id="key-filter-status"
          value={filter.status}
          onValueChange={(status) => onChange({ ...filter, status: status as StatusFilter })}
          options={STATUS_OPTIONS}
        />
      </div>
    </div>
  );
}
