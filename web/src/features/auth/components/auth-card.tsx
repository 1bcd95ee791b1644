import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Seo } from '@/components/seo/seo';

/** A link under the card, in the small muted style of the admin login's way back to the store. */
export function AuthCardLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="inline-flex w-fit items-center gap-2 rounded-sm text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      {children}
    </Link>
  );
}

/**
 * One page of the customer sign-in: a centred card with an icon, the page's heading and what it says, under the
 * storefront's header. Every sign-in page stays out of search results.
 */
export function AuthCard({
  title,
  heading = title,
  icon: Icon,
  tone = 'primary',
  description,
  children,
  links,
}: {
  /** The page title (before the site name). */
  title: string;
  /** The h1, when it says more than the title. */
  heading?: string;
  icon: LucideIcon;
  tone?: 'primary' | 'destructive';
  description: ReactNode;
  children?: ReactNode;
  /** Ways on, under the card; "Back to the store" comes last on every page. */
  links?: ReactNode;
}) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-12">
      <Seo title={title} description={`${title}: customer sign-in by an emailed link.`} noindex />
      <div className="flex w-full max-w-md flex-col items-center gap-4">
        <section
          aria-labelledby="auth-heading"
          className="w-full rounded-lg border border-border bg-card p-6 text-card-foreground shadow-sm sm:p-8"
        >
          <div className="flex flex-col items-center text-center">
            <span
              className={`mb-4 flex size-12 items-center justify-center rounded-full ${tone === 'primary' ? 'bg-primary/10 text-primary' : 'bg-destructive/10 text-destructive'}`}
            >
              <Icon aria-hidden="true" className="size-6" />
            </span>
            <h1 id="auth-heading" className="text-2xl font-bold tracking-tight text-balance">
              {heading}
            </h1>
            <div className="mt-2 grid gap-2 text-sm text-muted-foreground">{description}</div>
          </div>
          {children && <div className="mt-6">{children}</div>}
        </section>
        <div className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
          {links}
          <AuthCardLink href="/">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to the store
          </AuthCardLink>
        </div>
      </div>
    </div>
  );
}
