import { Headphones, Infinity as InfinityIcon, Lock, ShieldCheck } from 'lucide-react';
import { SectionHeading } from './section-heading';

const REASONS = [
  {
    icon: InfinityIcon,
    title: 'Lifetime Licenses',
    text: 'A one-time payment, no subscription. The license is yours to keep, for good.',
  },
  {
    icon: ShieldCheck,
    title: '100% Genuine',
    text: 'Official license keys that activate with the publisher, with a 30-day money-back guarantee.',
  },
  {
    icon: Headphones,
    title: '24/7 Support',
    text: 'Real people on live chat and email, day and night, from purchase to activation.',
  },
  {
    icon: Lock,
    title: 'Secure Payment',
    text: 'Encrypted checkout with PayPal or your card. We never see or store your card details.',
  },
];

export function WhyChooseUs() {
  return (
    <section aria-labelledby="why-heading" className="flex flex-col gap-10">
      <SectionHeading
        id="why-heading"
        title="Why Choose LicenseStore?"
        subtitle="Everything you need from a software store, at a fraction of the retail price."
      />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {REASONS.map(({ icon: Icon, title, text }) => (
          <li
            key={title}
            className="flex flex-col gap-3 rounded-lg border border-border bg-card p-6 text-card-foreground shadow-sm"
          >
            <span className="flex size-12 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-6" />
            </span>
            <h3 className="text-lg font-semibold">{title}</h3>
            <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
