import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { SITE_NAME } from '@/config/site';

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className={`rounded-md px-3 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary ${active ? 'text-foreground' : 'text-muted-foreground'}`}
    >
      {children}
    </Link>
  );
}

export function StorefrontLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-background text-foreground">
      <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4">
          <Link
            href="/"
            className="flex items-center gap-2 text-lg font-bold"
            aria-label={`${SITE_NAME} home`}
          >
            <img src="/favicon.svg" alt="" className="size-8" />
            <span>{SITE_NAME}</span>
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1">
            <NavLink href="/">Home</NavLink>
            <NavLink href="/products">Products</NavLink>
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main className="flex-1">{children}</main>
      <footer className="border-t border-border">
        <div className="mx-auto max-w-7xl px-4 py-8 text-sm text-muted-foreground">
          © {new Date().getFullYear()} {SITE_NAME}. Genuine licences, delivered by e-mail.
        </div>
      </footer>
    </div>
  );
}
