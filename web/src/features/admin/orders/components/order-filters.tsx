import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/filter-select';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SearchBox } from '@/components/ui/search-box';
import type { SelectOption } from '@/components/ui/select';
import { SortSelect } from '@/components/ui/sort-select';
import type { ListSearch } from '@/lib/list-search';

const ALL = 'all';

const STATUS_OPTIONS = [
  { value: ALL, label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'processing', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'refunded', label: 'Refunded' },
];

const SORT_OPTIONS: [SelectOption, ...SelectOption[]] = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'total:desc', label: 'Highest total' },
  { value: 'total:asc', label: 'Lowest total' },
];

/** The filters the orders list keeps in the URL (besides the sort and the page). */
export const ORDER_FILTERS = ['q', 'status', 'from', 'to'] as const;

/** One end of the placed-between filter: a day, bounded by the other end so the range never turns round. */
function DayInput({
  id,
  label,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="date"
        className="h-9 w-40"
        value={value ?? ''}
        min={min}
        max={max}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** Search, status, placed between two days (UTC, both included) and the order of the list. */
export function OrderFilters({ search, onClear }: { search: ListSearch; onClear: (() => void) | undefined }) {
  const { params, update } = search;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SearchBox
        id="order-search"
        label="Search orders"
        placeholder="Order number, email, name or PayPal ID"
        value={params.q ?? ''}
        onSearch={(q) => update({ q })}
      />
      <FilterSelect
        id="order-status"
        label="Status"
        value={params.status ?? ALL}
        onValueChange={(status) => update({ status: status === ALL ? null : status })}
        options={STATUS_OPTIONS}
        className="sm:w-40"
      />
      <DayInput
        id="order-from"
        label="From"
        value={params.from}
        max={params.to}
        onChange={(from) => update({ from })}
      />
      <DayInput
        id="order-to"
        label="To"
        value={params.to}
        min={params.from}
        onChange={(to) => update({ to })}
      />
      <SortSelect id="order-sort" search={search} options={SORT_OPTIONS} className="sm:w-40" />
      {onClear && (
        <Button variant="ghost" className="h-9" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
