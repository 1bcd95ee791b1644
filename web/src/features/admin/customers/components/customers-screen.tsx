import { Button } from '@/components/ui/button';
import { SearchBox } from '@/components/ui/search-box';
import type { SelectOption } from '@/components/ui/select';
import { SortSelect } from '@/components/ui/sort-select';
import { clearFilters, useListSearch } from '@/lib/list-search';
import { CustomersTable } from './customers-table';

const SORT_OPTIONS: [SelectOption, ...SelectOption[]] = [
  { value: 'lastOrderDate:desc', label: 'Latest order first' },
  { value: 'lastOrderDate:asc', label: 'Earliest order first' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'totalSpent:desc', label: 'Most spent' },
  { value: 'totalSpent:asc', label: 'Least spent' },
];

const FILTERS = ['q'];

/** The Customers screen's list: search, sort and page in the URL, each page read from the server. */
export function CustomersScreen() {
  const search = useListSearch();
  const { params, update } = search;
  const clear = clearFilters(search, FILTERS);
  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <SearchBox
          id="customer-search"
          label="Search customers"
          placeholder="Name or email address"
          value={params.q ?? ''}
          onSearch={(q) => update({ q })}
        />
        <SortSelect id="customer-sort" search={search} options={SORT_OPTIONS} className="sm:w-48" />
        {clear && (
          <Button variant="ghost" className="h-9" onClick={clear}>
            Clear search
          </Button>
        )}
      </div>
      <CustomersTable params={params} onPage={search.goTo} onClearFilters={clear} />
    </>
  );
}
