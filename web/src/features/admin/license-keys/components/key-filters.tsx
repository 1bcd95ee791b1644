import { FilterSelect } from '@/components/ui/filter-select';
import { SearchBox } from '@/components/ui/search-box';
import { useProducts } from '../api/get-products';
import { productOptions } from './product-options';

/** The select's value for "no filter": radix selects take no empty value. */
const ALL = 'all';

const STATUS_OPTIONS = [
  { value: ALL, label: 'All statuses' },
  { value: 'available', label: 'Available' },
  { value: 'assigned', label: 'Assigned' },
  { value: 'revoked', label: 'Revoked' },
];

/** The filters the keys list keeps in the URL (besides the page). */
export const KEY_FILTERS = ['product', 'status', 'q'] as const;

export interface KeyFilterValues {
  product?: string;
  status?: string;
  q?: string;
}

/** Finds keys by what their mask shows (or the whole key, read out by a customer); sent when submitted. */
function KeySearch({ q, onSearch }: { q: string | undefined; onSearch: (q: string | null) => void }) {
  return (
    <SearchBox
      id="key-search"
      label="Key ends with"
      placeholder="Last 4 characters, or the whole key"
      value={q ?? ''}
      minLength={4}
      onSearch={(term) => onSearch(term || null)}
    />
  );
}

/** Product, status and the search, as the list's URL holds them; a change goes back to the first page. */
export function KeyFilters({
  filters,
  onChange,
}: {
  filters: KeyFilterValues;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const { data: products } = useProducts();
  const pick = (name: string) => (value: string) => onChange({ [name]: value === ALL ? null : value });
  return (
    <div className="flex flex-wrap items-end gap-3">
      <FilterSelect
        id="key-filter-product"
        label="Product"
        value={filters.product ?? ALL}
        onValueChange={pick('product')}
        options={[{ value: ALL, label: 'All products' }, ...productOptions(products)]}
        className="sm:w-64"
      />
      <FilterSelect
        id="key-filter-status"
        label="Status"
        value={filters.status ?? ALL}
        onValueChange={pick('status')}
        options={STATUS_OPTIONS}
        className="sm:w-44"
      />
      {/* Keyed by the URL's search, so going back in history shows that search in the box too. */}
      <KeySearch key={filters.q ?? ''} q={filters.q} onSearch={(q) => onChange({ q })} />
    </div>
  );
}
