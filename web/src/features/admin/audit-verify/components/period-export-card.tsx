import { FileDown } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorSentence } from '@/lib/api';
import { toast } from '@/lib/toast';
import { downloadPeriodExport, useExportSigning } from '../api/period-export';

const today = () => new Date().toISOString().slice(0, 10);
const firstOfMonth = () => `${today().slice(0, 8)}01`;

/** A day of the period, up to today. */
function DayField(props: { id: string; label: string; value: string; onChange: (day: string) => void }) {
  return (
    <FormField id={props.id} label={props.label} className="w-44">
      {(control) => (
        <Input
          {...control}
          type="date"
          value={props.value}
          max={today()}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/**
 * The signed log of a period, for an auditor to keep or hand on: what `npm run audit:export` writes (the events as
 * hash-chained lines and a signed manifest, zipped), which `npm run audit:check-export` verifies. Unavailable,
 * with the reason beside the button, while the store has no signing key.
 */
export function PeriodExportCard() {
  const signing = useExportSigning();
  const [from, setFrom] = useState(firstOfMonth);
  const [to, setTo] = useState(today);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keyId = signing.data?.keyId ?? null;
  const unavailable = signing.isPending
    ? 'Checking the signing key…'
    : signing.error
      ? errorSentence(signing.error)
      : keyId === null
        ? 'Unavailable: no audit signing key is set (AUDIT_SIGNING_KEY), and an unsigned export proves nothing.'
        : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to) return setProblem('Choose the first and the last day of the period.');
    if (from > to) return setProblem('The first day must not be after the last day.');
    setProblem(null);
    setBusy(true);
    try {
      await downloadPeriodExport(from, to);
    } catch (error) {
      toast({
        title: 'The export could not be made',
        description: error instanceof Error ? errorSentence(error) : String(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card aria-labelledby="period-export-heading">
      <CardHeader>
        <CardTitle id="period-export-heading">Export the signed log</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-muted-foreground">
          The events recorded in a period, as <code className="font-mono">npm run audit:export</code> writes
          them: hash-chained lines and a signed manifest, in one zip that{' '}
          <code className="font-mono">npm run audit:check-export</code> verifies. Days are in UTC; the last
          day is included, up to now if it is today.
        </p>
        <form noValidate onSubmit={submit} className="flex flex-wrap items-end gap-4">
          <DayField id="export-from" label="First day" value={from} onChange={setFrom} />
          <DayField id="export-to" label="Last day" value={to} onChange={setTo} />
          <Button
            type="submit"
            disabled={busy || unavailable !== null}
            aria-describedby={unavailable ? 'period-export-unavailable' : undefined}
          >
            <FileDown aria-hidden="true" className="size-4" />
            {busy ? 'Preparing export…' : 'Download signed export'}
          </Button>
        </form>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <p id="period-export-unavailable" className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
          {unavailable ?? (
            <>
              Signed with key <code className="font-mono">{keyId}</code>
            </>
          )}
        </p>
      </CardContent>
    </Card>
  );
}
