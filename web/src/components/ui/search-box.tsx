import { Search } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from './button';
import { Input } from './input';
import { Label } from './label';

/** Searches need three characters: shorter terms cannot use the server's trigram indexes. */
const MIN_SEARCH_LENGTH = 3;

/**
 * A list's search field: submitted with Enter or the Search button (not on every keystroke), so each search is
 * one request and one entry in the browser's history. Follows `value` when the URL changes (back button).
 */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onSearch,
  minLength = MIN_SEARCH_LENGTH,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onSearch: (term: string) => void;
  /** The shortest term the list's server search takes. */
  minLength?: number;
}) {
  const [term, setTerm] = useState(value);
  useEffect(() => setTerm(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(term.trim());
  };
  return (
    <search className="w-full sm:w-80">
      <form onSubmit={submit} className="grid gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex gap-2">
          <Input
            id={id}
            type="search"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder={placeholder}
            minLength={minLength}
            maxLength={200}
            className="h-9"
          />
          <Button type="submit" variant="outline" className="h-9 px-3">
            <Search aria-hidden="true" className="size-4" />
            Search
          </Button>
        </div>
      </form>
    </search>
  );
}
