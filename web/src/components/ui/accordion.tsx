import * as AccordionPrimitive from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';

export interface AccordionEntry {
  id: string;
  title: string;
  content: ReactNode;
}

/** Question-and-answer lists: one item open at a time, and the open one closes again when clicked. */
export function Accordion({ entries, className = '' }: { entries: AccordionEntry[]; className?: string }) {
  return (
    <AccordionPrimitive.Root
      type="single"
      collapsible
      className={`divide-y divide-border rounded-lg border border-border bg-card text-card-foreground ${className}`}
    >
      {entries.map((entry) => (
        <AccordionPrimitive.Item key={entry.id} value={entry.id}>
          <AccordionPrimitive.Header asChild>
            <h3>
              <AccordionPrimitive.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-medium hover:bg-muted/50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary">
                {entry.title}
                <ChevronDown
                  aria-hidden="true"
                  className="size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-180"
                />
              </AccordionPrimitive.Trigger>
            </h3>
          </AccordionPrimitive.Header>
          <AccordionPrimitive.Content className="px-5 pb-4 text-sm leading-relaxed text-muted-foreground">
            {entry.content}
          </AccordionPrimitive.Content>
        </AccordionPrimitive.Item>
      ))}
    </AccordionPrimitive.Root>
  );
}
