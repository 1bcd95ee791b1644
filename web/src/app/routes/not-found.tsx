import { Link } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { buttonClasses } from '@/components/ui/button';

/** Where a lost visitor goes next: the store's home page, or the back office's dashboard under /admin. */
export interface WayBack {
  href: string;
  label: string;
}

const STORE_HOME: WayBack = { href: '/', label: 'Back to Home' };

export default function NotFoundRoute({ wayBack = STORE_HOME }: { wayBack?: WayBack }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <Seo title="Page Not Found" description="The page you asked for does not exist." noindex />
      <div className="w-full max-w-md rounded-lg border border-border bg-card p-6 text-card-foreground shadow-sm">
        <div className="flex items-center gap-2">
          <svg
            aria-hidden="true"
            className="size-8 text-destructive"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <circle cx="12" cy="12" r="10" />
            <path d="M12 8v4M12 16h.01" />
          </svg>
          <h1 className="text-2xl font-bold">404 Page Not Found</h1>
        </div>
        <p className="mt-4 text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
        <Link href={wayBack.href} className={buttonClasses('primary', 'mt-6')}>
          {wayBack.label}
        </Link>
      </div>
    </div>
  );
}
