import type { Page } from '@licensestore/contract/paging';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

/**
 * Previous / Next through a keyset-paged list. `label` names the list's pages for screen readers ("Order pages");
 * `busy` disables both while a page loads, so a double click never skips one.
 */
export function Pager({
  label,
  page,
  onPage,
  busy = false,
}: {
  label: string;
  page: Pick<Page<unknown>, 'nextCursor' | 'prevCursor'> | undefined;
  onPage: (cursor: string) => void;
  busy?: boolean;
}) {
  const prev = page?.prevCursor ?? null;
  const next = page?.nextCursor ?? null;
  if (prev === null && next === null) return null;
  return (
    <nav aria-label={label} className="flex justify-end gap-2">
      <Button variant="outline" onClick={() => prev && onPage(prev)} disabled={busy || prev === null}>
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous
      </Button>
      <Button variant="outline" onClick={() => next && onPage(next)} disabled={busy || next === null}>
        Next
        <ChevronRight aria-hidden="true" className="size-4" />
      </Button>
    </nav>
  );
}
