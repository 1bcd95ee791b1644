import { ALL_CATEGORIES, CATEGORY_PARAM, SALE_PARAM } from '../utils/categories';

/**
 * Toggle buttons, one pressed at a time: 'All' and then each category. Without JavaScript each is a form's submit
 * button, so the page comes back from the server with `?category=` chosen; with it, `onSelect` changes the page in
 * place.
 */
export function CategoryFilter({
  categories,
  selected,
  saleOnly,
  onSelect,
}: {
  categories: string[];
  selected: string;
  /** Kept by the form: choosing a category among the products on sale stays among them. */
  saleOnly: boolean;
  onSelect: (category: string) => void;
}) {
  return (
    <form method="get" action="/products">
      {saleOnly && <input type="hidden" name={SALE_PARAM} value="" />}
      <fieldset className="flex min-w-0 flex-wrap gap-2">
        <legend className="sr-only">Filter by category</legend>
        {[ALL_CATEGORIES, ...categories].map((category) => {
          const pressed = category === selected;
          return (
            <button
              key={category}
              type="submit"
              name={CATEGORY_PARAM}
              value={category}
              aria-pressed={pressed}
              onClick={(event) => {
                event.preventDefault();
                onSelect(category);
              }}
              className={`rounded-full border px-4 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${
                pressed
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'border-border bg-background hover:bg-muted'
              }`}
            >
              {category}
            </button>
          );
        })}
      </fieldset>
    </form>
  );
}
