import { clearFilters, useListSearch } from '@/lib/list-search';
import { ORDER_FILTERS, OrderFilters } from './order-filters';
import { OrdersTable } from './orders-table';

/** The Orders screen's list: filters, sort and page in the URL, each page read from the server. */
export function OrdersScreen() {
  const search = useListSearch();
  const clear = clearFilters(search, ORDER_FILTERS);
  return (
    <>
      <OrderFilters search={search} onClear={clear} />
      <OrdersTable params={search.params} onPage={search.goTo} onClearFilters={clear} />
    </>
  );
}
