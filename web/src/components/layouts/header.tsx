import { LogOut, Menu, ShoppingCart, User as UserIcon, X } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle';
import { buttonClasses } from '@/components/ui/button';
import { SIGN_IN_URL, SIGN_OUT_URL, SIGN_UP_URL } from '@/config/sign-in';
import { SITE_NAME } from '@/config/site';
import { useUser } from '@/features/auth/api/get-user';
import { cartButtonRef, setCartPanelOpen, useCartLines } from '@/features/cart/api/use-cart';
import { itemCount } from '@/features/cart/utils/cart-store';

function NavLink({ href, children, onClick }: { href: string; children: ReactNode; onClick?: () => void }) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      onClick={onClick}
      aria-current={active ? 'page' : undefined}
      className={`rounded-md px-3 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary ${active ? 'text-foreground' : 'text-muted-foreground'}`}
    >
      {children}
    </Link>
  );
}

function CartButton() {
  const count = itemCount(useCartLines());
  return (
    <button
      ref={cartButtonRef}
      type="button"
      onClick={() => setCartPanelOpen(true)}
      aria-label={count === 0 ? 'Cart, empty' : `Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
      className="relative inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      <ShoppingCart aria-hidden="true" className="size-5" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid="cart-count"
          className="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1 text-xs font-semibold text-primary-foreground"
        >
          {count}
        </span>
      )}
    </button>
  );
}

function Avatar({ imageUrl }: { imageUrl: string | null }) {
  const [failed, setFailed] = useState(false);
  return (
    <span
      className="flex size-8 items-center justify-center overflow-hidden rounded-full bg-muted"
      title="Signed in"
    >
      {imageUrl && !failed ? (
        <img
          src={imageUrl}
          alt="Your profile"
          className="size-full object-cover"
          onError={() => setFailed(true)}
        />
      ) : (
        <UserIcon aria-label="Your profile" className="size-4" />
      )}
    </span>
  );
}

/**
 * The site's icon (public/favicon.svg) drawn in the page rather than fetched: a picture request less on every page's
 * first load, where connections are few.
 */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" width={32} height={32} aria-hidden="true" className="size-8">
      <rect width="32" height="32" rx="7" fill="#2563eb" />
      <path
        d="M20.5 7a4.5 4.5 0 0 0-4.3 5.8L8 21v4h4v-2h2v-2h2l1.7-1.7A4.5 4.5 0 1 0 20.5 7zm1 5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3z"
        fill="#fff"
      />
    </svg>
  );
}

export function Header() {
  const { user, isAuthenticated } = useUser();
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  const closeMenu = () => setMenuOpen(false);

  // A navigation closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on location change only
  useEffect(closeMenu, [location]);

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 md:gap-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold" aria-label={`${SITE_NAME} home`}>
          <Logo />
          <span>{SITE_NAME}</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <NavLink href="/">Home</NavLink>
          <NavLink href="/products">Products</NavLink>
          {isAuthenticated && <NavLink href="/account">My Orders</NavLink>}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <CartButton />
          {isAuthenticated ? (
            <div className="hidden items-center gap-2 md:flex">
              <Avatar imageUrl={user?.profileImageUrl ?? null} />
              <a href={SIGN_OUT_URL} className={buttonClasses('ghost')}>
                <LogOut aria-hidden="true" className="size-4" />
                Logout
              </a>
            </div>
          ) : (
            <div className="hidden items-center gap-2 md:flex">
              <a href={SIGN_IN_URL} className={buttonClasses('ghost')}>
                Sign In
              </a>
              <a href={SIGN_UP_URL} className={buttonClasses('primary')}>
                Sign Up
              </a>
            </div>
          )}
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? (
              <X aria-hidden="true" className="size-5" />
            ) : (
              <Menu aria-hidden="true" className="size-5" />
            )}
          </button>
        </div>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-border md:hidden">
          <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3">
            <NavLink href="/" onClick={closeMenu}>
              Home
            </NavLink>
            <NavLink href="/products" onClick={closeMenu}>
              Products
            </NavLink>
            {isAuthenticated ? (
              <>
                <NavLink href="/account" onClick={closeMenu}>
                  My Orders
                </NavLink>
                <a
                  href={SIGN_OUT_URL}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted"
                >
                  Logout
                </a>
              </>
            ) : (
              <a
                href={SIGN_IN_URL}
                className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted"
              >
                Sign In
              </a>
            )}
          </div>
        </nav>
      )}
    </header>
  );
}
