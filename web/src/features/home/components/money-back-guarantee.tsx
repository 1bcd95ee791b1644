import { BadgeCheck } from 'lucide-react';

export function MoneyBackGuarantee() {
  return (
    <section
      aria-labelledby="guarantee-heading"
      className="flex flex-col items-center gap-6 rounded-2xl border border-success/30 bg-success/10 p-8 text-center sm:flex-row sm:text-left"
    >
      <span className="flex size-20 shrink-0 items-center justify-center rounded-full bg-success text-success-foreground">
        <BadgeCheck aria-hidden="true" className="size-10" />
      </span>
      <div className="flex flex-col gap-2">
        <h2 id="guarantee-heading" className="text-2xl font-bold tracking-tight">
          30-Day Money-Back Guarantee
        </h2>
        <p className="text-muted-foreground">
          If your license doesn't work as described, tell us within 30 days and we'll refund you in full. No
          questions, no hassle: buying from us carries no risk.
        </p>
      </div>
    </section>
  );
}
