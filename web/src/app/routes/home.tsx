import { Link } from 'wouter';
import { Seo } from '@/components/seo/seo';
import { buttonClasses } from '@/components/ui/button';
import { FeaturedProducts } from '@/features/catalogue/components/featured-products';
import { organization } from '@/lib/structured-data';

export default function HomeRoute() {
  return (
    <>
      <Seo
        title="Genuine Software Licences"
        description="Genuine software licences with instant digital delivery: office suites, operating systems, antivirus and creative tools."
        structuredData={[organization()]}
      />
      <section className="border-b border-border bg-muted/40">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-4 px-4 py-16">
          <h1 className="max-w-2xl text-4xl font-bold tracking-tight md:text-5xl">
            Genuine software licences, delivered to your inbox
          </h1>
          <p className="max-w-xl text-lg text-muted-foreground">
            Lifetime licences for a one-time payment. Your licence key and download link arrive by e-mail
            within 15-30 minutes.
          </p>
          <Link href="/products" className={buttonClasses('primary', 'px-6 py-3 text-base')}>
            Shop Now
          </Link>
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-12">
        <FeaturedProducts />
      </div>
    </>
  );
}
