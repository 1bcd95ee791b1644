import { ChevronRight } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'wouter';

export interface BreadcrumbItem {
  name: string;
  /** Absent on the current page, which is the last crumb. */
  href?: string;
}

/** The trail from Home to the current page; the last item is marked as the current page. */
export function Breadcrumb({ items, className = '' }: { items: BreadcrumbItem[]; className?: string }) {
  return (
    <nav aria-label="Breadcrumb" className={className}>
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
        {items.map((item, index) => (
          <Fragment key={item.href ?? item.name}>
            {index > 0 && (
              <li aria-hidden="true" className="flex">
                <ChevronRight className="size-4" />
              </li>
            )}
            <li className="min-w-0">
              {item.href ? (
                <Link
                  href={item.href}
                  className="rounded-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
                >
                  {item.name}
                </Link>
              ) : (
                <span aria-current="page" className="block truncate font-medium text-foreground">
                  {item.name}
                </span>
              )}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
