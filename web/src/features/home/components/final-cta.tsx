import { ArrowRight, MessageCircle } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '@/components/ui/button';
import { SUPPORT_EMAIL } from '@/config/site';

export function FinalCta() {
  return (
    <section
      aria-labelledby="cta-heading"
      className="flex flex-col items-center gap-6 rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12"
    >
      <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
        Ready to Get Started?
      </h2>
      <p className="max-w-2xl">
        Join more than 50,000 customers who save up to 50% on genuine software. Questions first? Our support
        team is available 24/7.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link
          href="/products"
          className={buttonClasses('outline', 'h-12 border-transparent px-6 text-base text-foreground')}
        >
          Browse Full Catalog
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
        <a
          href={`mailto:${SUPPORT_EMAIL}`}
          className="inline-flex h-12 items-center justify-center gap-2 rounded-md border border-current px-6 text-base font-medium transition-colors hover:bg-primary-foreground/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-foreground"
        >
          <MessageCircle aria-hidden="true" className="size-4" />
          Contact Support
        </a>
      </div>
    </section>
  );
}
