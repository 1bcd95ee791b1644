import { CreditCard, MailCheck, MousePointerClick } from 'lucide-react';
import { SectionHeading } from './section-heading';

const STEPS = [
  {
    icon: MousePointerClick,
    title: 'Choose Your Software',
    text: 'Browse office suites, operating systems, antivirus and creative tools, and add what you need to the cart.',
  },
  {
    icon: CreditCard,
    title: 'Secure Checkout',
    text: 'Enter your name and email, then pay safely with PayPal or a debit or credit card.',
  },
  {
    icon: MailCheck,
    title: 'Get Instant Access',
    text: 'Your license key and official download link arrive by email within 15-30 minutes.',
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-heading" className="flex flex-col gap-10">
      <SectionHeading
        id="how-heading"
        title="How It Works"
        subtitle="From checkout to installed in three steps."
      />
      <ol className="grid gap-8 md:grid-cols-3">
        {STEPS.map(({ icon: Icon, title, text }, index) => (
          <li key={title} className="flex flex-col items-center gap-3 text-center">
            <span className="relative flex size-16 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg">
              <Icon aria-hidden="true" className="size-7" />
              <span
                aria-hidden="true"
                className="absolute -top-1 -right-1 flex size-6 items-center justify-center rounded-full border-2 border-background bg-foreground text-xs font-bold text-background"
              >
                {index + 1}
              </span>
            </span>
            <h3 className="text-lg font-semibold">
              <span className="sr-only">Step {index + 1}: </span>
              {title}
            </h3>
            <p className="max-w-xs text-sm leading-relaxed text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
