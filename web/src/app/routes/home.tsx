import { Seo } from '@/components/seo/seo';
import { FeaturedProducts } from '@/features/catalogue/components/featured-products';
import { FinalCta } from '@/features/home/components/final-cta';
import { Hero } from '@/features/home/components/hero';
import { HowItWorks } from '@/features/home/components/how-it-works';
import { MoneyBackGuarantee } from '@/features/home/components/money-back-guarantee';
import { PromoBanner } from '@/features/home/components/promo-banner';
import { StatsStrip } from '@/features/home/components/stats-strip';
import { WhyChooseUs } from '@/features/home/components/why-choose-us';
import { Testimonials } from '@/features/testimonials/components/testimonials';
import { organization } from '@/lib/structured-data';

export default function HomeRoute() {
  return (
    <>
      <Seo
        title="Genuine Software Licenses"
        description="Genuine software licenses with instant digital delivery: office suites, operating systems, antivirus and creative tools at up to 50% off."
        structuredData={[organization()]}
      />
      <PromoBanner />
      <Hero />
      <StatsStrip />
      <div className="mx-auto flex max-w-7xl flex-col gap-20 px-4 py-16 sm:gap-24 sm:py-20">
        <WhyChooseUs />
        <HowItWorks />
        <FeaturedProducts />
        <MoneyBackGuarantee />
        <Testimonials />
        <FinalCta />
      </div>
    </>
  );
}
