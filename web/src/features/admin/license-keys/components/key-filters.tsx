import { Search } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
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

export interface KeyFilterValues {
  product?: string;
  status?: string;
  q?: string;
}

/** Finds keys by what their mask shows (or the whole key, read out by a customer); sent when submitted. */
function KeySearch({ q, onSearch }: { q: string | undefined; onSearch: (q: string | null) => void }) {
  const [typed, setTyped] = useState(q ?? '');
  return (
    <form
      role="search"
      className="grid w-full gap-1.5 sm:w-72"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(typed.trim() || null);
      }}
    >
      <Label htmlFor="key-search">Key ends with</Label>
      <div className="flex gap-2">
        <Input
          id="key-search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="Last 4 characters, or the whole key"
          minLength={4}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" variant="outline" className="shrink-0" aria-label="Search license keys">
          <Search aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </form>
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
      <div className="grid w-full gap-1.5 sm:w-64">
        <Label htmlFor="key-filter-product">Product</Label>
        <Select
          id="key-filter-product"
          value={filters.product ?? ALL}
          onValueChange={pick('product')}
          options={[{ value: ALL, label: 'All products' }, ...productOptions(products)]}
        />
      </div>
      <div className="grid w-full gap-1.5 sm:w-44">
        <Label htmlFor="key-filter-status">Status</Label>
        <Select
          id="key-filter-status"
          value={filters.status ?? ALL}
          onValueChange={pick('status')}
          options={STATUS_OPTIONS}
        />
      </div>
      {/* Keyed by the URL's search, so going back in history shows that search in the box too. */}
      <KeySearch key={filters.q ?? ''} q={filters.q} onSearch={(q) => onChange({ q })} />
    </div>
  );
}
