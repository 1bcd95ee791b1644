import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { type EventLogFilters, noFilters } from '../api/get-audit-events';
import { EVENT_TYPES, eventTypeLabel } from '../utils/event-types';
import { isoFromLocalInput, localInputValue } from '../utils/moment';

const ALL_TYPES = 'all';
const typeOptions = [
  { value: ALL_TYPES, label: 'All event types' },
  ...EVENT_TYPES.map((type) => ({ value: type, label: eventTypeLabel(type) })),
];

/** What the inputs hold: times in local `datetime-local` form until the filters are applied. */
const draftOf = (filters: EventLogFilters) => ({
  ...filters,
  from: filters.from && localInputValue(filters.from),
  to: filters.to && localInputValue(filters.to),
});

/** The log's filters: applied together when the form is sent, so each page read is one query. */
export function EventFilters({
  filters,
  onApply,
}: {
  filters: EventLogFilters;
  onApply: (filters: EventLogFilters) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(filters));
  const field = (name: keyof EventLogFilters) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      type: draft.type,
      actor: draft.actor.trim(),
      order: draft.order.trim(),
      product: draft.product.trim(),
      from: isoFromLocalInput(draft.from),
      to: isoFromLocalInput(draft.to, { endOfSecond: true }),
    });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Event log filters"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-type`}>Event type</Label>
        <Select
          id={`${id}-type`}
          value={draft.type || ALL_TYPES}
          onValueChange={(type) => setDraft({ ...draft, type: type === ALL_TYPES ? '' : type })}
          options={typeOptions}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-actor`}>Actor id</Label>
        <Input {...field('actor')} placeholder="An admin's id, a customer's email, workers" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-order`}>Order id</Label>
        <Input {...field('order')} placeholder="The order's full id" className="font-mono" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-product`}>Product id</Label>
        <Input {...field('product')} placeholder="The product's full id" className="font-mono" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-from`}>From</Label>
        <Input {...field('from')} type="datetime-local" step={1} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-to`}>To</Label>
        <Input {...field('to')} type="datetime-local" step={1} />
      </div>
      <div className="flex gap-3 sm:col-span-2 lg:col-span-3">
        <Button type="submit">Apply filters</Button>
        <Button
          variant="outline"
          onClick={() => {
            setDraft(draftOf(noFilters));
            onApply(noFilters);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
