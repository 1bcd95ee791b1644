import { ListChecks } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { isRunning, useStartVerification, useVerifications } from '../api/verifications';
import { CurrentVerification } from './current-verification';
import { ParkedEventsCard } from './parked-events-card';
import { PeriodExportCard } from './period-export-card';
import { RecentVerifications } from './recent-verifications';

/**
 * Verify read models: replays the whole event log into scratch tables (in the workers) and compares every read
 * model with it row by row, as `npm run audit:verify` does; and the signed log of a period downloaded, as
 * `npm run audit:export` writes it. Open to auditors: it changes no business data.
 */
export function VerifyScreen() {
  const [chosen, setChosen] = useState<string | null>(null);
  const runs = useVerifications();
  const start = useStartVerification();
  // The run the auditor started or chose, else the latest one.
  const shown = chosen ?? runs.data?.[0]?.id ?? null;
  const inProgress = runs.data?.some(isRunning) ?? false;
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Verify Read Models</h1>
          <p className="text-muted-foreground">
            Rebuild every read model from the event log and compare it with what the store shows, row by row
          </p>
        </div>
        <Button
          onClick={() => start.mutate(undefined, { onSuccess: (run) => setChosen(run.id) })}
          disabled={start.isPending}
          aria-describedby={inProgress ? 'verify-in-progress' : undefined}
        >
          <ListChecks aria-hidden="true" className="size-4" />
          {start.isPending ? 'Starting…' : 'Start verification'}
        </Button>
      </div>
      {inProgress && (
        <p id="verify-in-progress" className="text-sm text-muted-foreground">
          A verification is running; starting one now follows it.
        </p>
      )}
      <ParkedEventsCard />
      <PeriodExportCard />
      {shown && <CurrentVerification id={shown} />}
      <section aria-labelledby="recent-verifications-heading" className="space-y-3">
        <h2 id="recent-verifications-heading" className="text-xl font-semibold">
          Recent runs
        </h2>
        <RecentVerifications selected={shown} onSelect={setChosen} />
      </section>
    </>
  );
}
