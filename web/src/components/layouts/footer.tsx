import { Link } from 'wouter';
import { PaymentIcons } from '@/components/payment-icons';
import { SITE_NAME, SUPPORT_EMAIL } from '@/config/site';

const linkClass = 'rounded-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-primary';

export function Footer() {
  return (
    <footer className="border-t border-border bg-muted/30">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 text-sm text-muted-foreground md:grid-cols-3">
        <div className="flex flex-col gap-2">
          <p className="text-base font-bold text-foreground">{SITE_NAME}</p>
          <p>Genuine lifetime licenses for a one-time payment, delivered by email within 15-30 minutes.</p>
        </div>
        <nav aria-label="Footer" className="flex flex-col gap-2">
          <p className="font-semibold text-foreground">Shop</p>
          <Link href="/" className={linkClass}>
            Home
          </Link>
          <Link href="/products" className={linkClass}>
            Products
          </Link>
          <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
            24/7 support: {SUPPORT_EMAIL}
          </a>
        </nav>
        <div className="flex flex-col gap-3">
          <p className="font-semibold text-foreground">Secure payment</p>
          <PaymentIcons />
          <p>30-day money-back guarantee. 100% genuine licenses.</p>
        </div>
      </div>
      <div className="border-t border-border">
        <p className="mx-auto max-w-7xl px-4 py-4 text-xs text-muted-foreground">
          © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
