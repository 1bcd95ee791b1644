import { CheckCircle2, Download, FileText, Headphones, KeyRound, Lock, ShieldCheck, Zap } from 'lucide-react';

const REASONS = [
  { icon: Zap, title: 'Fast Delivery', text: 'Your key arrives by email within 15-30 minutes.' },
  { icon: ShieldCheck, title: '100% Genuine', text: 'Official keys that activate with the publisher.' },
  { icon: Lock, title: 'Secure Payment', text: 'Encrypted checkout with PayPal or your card.' },
  { icon: Headphones, title: '24/7 Support', text: 'Live chat and email, whenever you need us.' },
];

const DELIVERABLES = [
  { icon: KeyRound, text: 'Genuine license key' },
  { icon: Download, text: 'Official download link' },
  { icon: FileText, text: 'Step-by-step installation instructions' },
  { icon: Headphones, text: 'Lifetime support' },
];

export function WhyBuyHere() {
  return (
    <section aria-labelledby="why-heading" className="flex flex-col gap-4">
      <h2 id="why-heading" className="text-2xl font-bold tracking-tight">
        Why Choose LicenseStore?
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {REASONS.map(({ icon: Icon, title, text }) => (
          <li
            key={title}
            className="flex gap-3 rounded-lg border border-border bg-card p-4 text-card-foreground"
          >
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="flex flex-col gap-0.5">
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function WhatYouReceive() {
  return (
    <section
      aria-labelledby="receive-heading"
      className="flex flex-col gap-4 rounded-lg border border-border bg-card p-6 text-card-foreground"
    >
      <h2 id="receive-heading" className="text-xl font-bold tracking-tight">
        What You'll Receive
      </h2>
      <ul className="flex flex-col gap-3">
        {DELIVERABLES.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-center gap-3">
            <Icon aria-hidden="true" className="size-5 shrink-0 text-primary" />
            {text}
          </li>
        ))}
      </ul>
      <p className="flex items-start gap-2 border-t border-border pt-4 text-sm text-muted-foreground">
        <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
        Sent to the email address you give at checkout, within 15-30 minutes.
      </p>
    </section>
  );
}
