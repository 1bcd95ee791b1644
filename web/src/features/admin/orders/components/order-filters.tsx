import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SearchBox } from '@/components/ui/search-box';
import { Select } from '@/components/ui/select';
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

const SORT_OPTIONS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'total:desc', label: 'Highest total' },
  { value: 'total:asc', label: 'Lowest total' },
];

/** The filters the orders list keeps in the URL (besides the sort and the page). */
export const ORDER_FILTERS = ['q', 'status', 'from', 'to'] as const;

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
      <div className="grid w-full gap-1.5 sm:w-40">
        <Label htmlFor="order-status">Status</Label>
        <Select
          id="order-status"
          value={params.status ?? ALL}
          onValueChange={(status) => update({ status: status === ALL ? null : status })}
          options={STATUS_OPTIONS}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-from">From</Label>
        <Input
          id="order-from"
          type="date"
          className="h-9 w-40"
          value={params.from ?? ''}
          max={params.to}
          onChange={(event) => update({ from: event.target.value })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-to">To</Label>
        <Input
          id="order-to"
          type="date"
          className="h-9 w-40"
          value={params.to ?? ''}
          min={params.from}
          onChange={(event) => update({ to: event.target.value })}
        />
      </div>
      <div className="grid w-full gap-1.5 sm:w-40">
        <Label htmlFor="order-sort">Sort by</Label>
        <Select
          id="order-sort"
          value={`${params.sort ?? 'createdAt'}:${params.dir ?? 'desc'}`}
          onValueChange={(value) => {
            const [sort, dir] = value.split(':');
            update({ sort, dir });
          }}
          options={SORT_OPTIONS}
        />
      </div>
      {onClear && (
        <Button variant="ghost" className="h-9" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
