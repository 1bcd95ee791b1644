import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isoFromLocalInput, localInputValue } from '../utils/moment';

/**
 * A moment in the viewer's local time, to the second, handed on as an ISO date-time when the form is sent (not on
 * every keystroke: each moment is a fold of the log on the server).
 */
export function MomentPicker({
  label,
  at,
  onPick,
}: {
  label: string;
  /** The moment shown, ISO. */
  at: string;
  onPick: (at: string) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(() => localInputValue(at));
  const picked = isoFromLocalInput(value, { endOfSecond: true });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (picked) onPick(picked);
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="datetime-local"
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={!picked}
          className="w-64"
        />
      </div>
      <Button type="submit" disabled={!picked}>
        Show
      </Button>
      <Button
        variant="outline"
        onClick={() => {
          const now = new Date().toISOString();
          setValue(localInputValue(now));
          onPick(now);
        }}
      >
        Now
      </Button>
    </form>
  );
}
