import { Accordion } from '@/components/ui/accordion';
import type { FaqEntry } from '@/lib/structured-data';

export function ProductFaq({ entries }: { entries: FaqEntry[] }) {
  return (
    <section aria-labelledby="faq-heading" className="flex flex-col gap-4">
      <h2 id="faq-heading" className="text-2xl font-bold tracking-tight">
        Frequently Asked Questions
      </h2>
      <Accordion
        entries={entries.map((entry, index) => ({
          id: `faq-${index}`,
          title: entry.question,
          content: entry.answer,
        }))}
      />
    </section>
  );
}
