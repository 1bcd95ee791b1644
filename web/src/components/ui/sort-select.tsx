import type { ListSearch } from '@/lib/list-search';
import { FilterSelect } from './filter-select';
import type { SelectOption } from './select';

/**
 * A list's order, chosen from options whose values are `field:direction` and kept in the URL's `sort` and `dir`.
 * The first option is the order the server uses when the URL names none.
 */
export function SortSelect({
  id,
  search,
  options,
  className,
}: {
  id: string;
  search: ListSearch;
  options: [SelectOption, ...SelectOption[]];
  className: string;
}) {
  const [defaultSort, defaultDir] = options[0].value.split(':');
  const { params, update } = search;
  return (
    <FilterSelect
      id={id}
      label="Sort by"
      value={`${params.sort ?? defaultSort}:${params.dir ?? defaultDir}`}
      onValueChange={(value) => {
        const [sort, dir] = value.split(':');
        update({ sort, dir });
      }}
      options={options}
      className={className}
    />
  );
}
