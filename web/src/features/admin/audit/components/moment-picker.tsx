import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { isoFromLocalInput, localInputValue } from '../utils/moment';

/** Only a moment that has happened can be looked at: the log holds nothing later than now. */
function problemOf(picked: string): string | undefined {
  if (!picked) return 'Please enter a date and time';
  if (Date.parse(picked) > Date.now()) return 'That moment has not happened yet: pick one up to now.';
  return undefined;
}

/**
 * A moment in the viewer's local time, to the second, handed on as an ISO date-time when the form is sent (not on
 * every keystroke: each moment is a fold of the log on the server). A missing or future moment is refused with a
 * sentence beside the field.
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
  const [problem, setProblem] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const picked = isoFromLocalInput(value, { endOfSecond: true });
    const found = problemOf(picked);
    setProblem(found);
    if (!found) onPick(picked);
  };
  return (
    <form noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
      <FormField id={id} label={label} problem={problem} className="w-64">
        {(control) => (
          <Input
            {...control}
            type="datetime-local"
            step={1}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setProblem(undefined);
            }}
          />
        )}
      </FormField>
      {/* Level with the input, under the label's line. */}
      <div className="flex gap-3 sm:mt-6">
        <Button type="submit">Show</Button>
        <Button
          variant="outline"
          onClick={() => {
            const now = new Date().toISOString();
            setValue(localInputValue(now));
            setProblem(undefined);
            onPick(now);
          }}
        >
          Now
        </Button>
      </div>
    </form>
  );
}
