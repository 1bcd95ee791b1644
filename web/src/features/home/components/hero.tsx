import { CheckCircle2, Mail, ShieldCheck, ShoppingBag, Star, Zap } from 'lucide-react';
import { Link } from 'wouter';
import { PaymentIcons } from '@/components/payment-icons';
import { buttonClasses } from '@/components/ui/button';

const HIGHLIGHTS = ['Lifetime license, one-time payment', '100% genuine keys', '30-day money-back guarantee'];

/** A picture of what a shopper receives; decoration only, the text beside it says the same. */
function DeliveryPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-sm">
      <div className="absolute -inset-4 rounded-3xl bg-primary/15 blur-2xl" />
      <div className="relative flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-xl">
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-full bg-primary text-primary-foreground">
            <Mail className="size-5" />
          </span>
          <div className="flex flex-col">
            <span className="font-semibold">Your license key is here</span>
            <span className="text-sm text-muted-foreground">Delivered in 15 minutes</span>
          </div>
        </div>
        <div className="rounded-lg border border-dashed border-border bg-muted px-4 py-3 text-center font-mono text-sm tracking-wider">
          7XK2M-9QPLR-4HVT8-WB3JD-6FNCY
        </div>
        <ul className="flex flex-col gap-2 text-sm">
          <li className="flex items-center gap-2">
            <CheckCircle2 className="size-4 text-success" /> Official download link
          </li>
          <li className="flex items-center gap-2">
            <CheckCircle2 className="size-4 text-success" /> Step-by-step installation guide
          </li>
          <li className="flex items-center gap-2">
            <CheckCircle2 className="size-4 text-success" /> Lifetime support
          </li>
        </ul>
      </div>
      <div className="absolute -right-2 -bottom-5 flex items-center gap-1.5 rounded-full border border-border bg-card px-3 py-1.5 text-sm font-semibold shadow-lg">
        <Star className="size-4 fill-warning text-warning" /> 4.8/5
      </div>
    </div>
  );
}

export function Hero() {
  return (
    <section
      aria-labelledby="hero-heading"
      className="border-b border-border bg-gradient-to-b from-primary/10 via-background to-background"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-14 sm:py-20 lg:grid-cols-2">
        <div className="flex flex-col items-start gap-6">
          <span className="inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-sm font-medium">
            <Zap aria-hidden="true" className="size-4 text-primary" />
            Digital delivery by email
          </span>
          <h1
            id="hero-heading"
            className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            Genuine Software Licenses, <span className="text-primary">Delivered in Minutes</span>
          </h1>
          <p className="max-w-xl text-lg text-muted-foreground">
            Office suites, operating systems, antivirus and creative tools at up to 50% off. Your license key
            and download link arrive by email within 15-30 minutes.
          </p>
          <ul className="flex flex-col gap-2">
            {HIGHLIGHTS.map((highlight) => (
              <li key={highlight} className="flex items-center gap-2">
                <ShieldCheck aria-hidden="true" className="size-5 text-success" />
                {highlight}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-x-6 gap-y-4">
            <Link href="/products" className={buttonClasses('primary', 'h-12 px-8 text-base shadow-lg')}>
              <ShoppingBag aria-hidden="true" className="size-5" />
              Shop Now
            </Link>
            <div className="flex flex-col gap-1.5">
              <span className="text-xs font-medium text-muted-foreground">Secure payment with</span>
              <PaymentIcons />
            </div>
          </div>
        </div>
        <DeliveryPreview />
      </div>
    </section>
  );
}
