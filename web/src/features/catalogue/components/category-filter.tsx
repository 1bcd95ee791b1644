import { ALL_CATEGORIES } from '../utils/categories';

/** Toggle buttons, one pressed at a time: 'All' and then each category. */
export function CategoryFilter({
  categories,
  selected,
  onSelect,
}: {
  categories: string[];
  selected: string;
  onSelect: (category: string) => void;
}) {
  return (
    <fieldset className="flex min-w-0 flex-wrap gap-2">
      <legend className="sr-only">Filter by category</legend>
      {[ALL_CATEGORIES, ...categories].map((category) => {
        const pressed = category === selected;
        return (
          <button
            key={category}
            type="button"
            aria-pressed={pressed}
            onClick={() => onSelect(category)}
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
  );
}
