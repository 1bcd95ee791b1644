import type { VerificationView } from '@licensestore/domain/audit-verify';

const number = (n: number) => n.toLocaleString('en-US');

function describe(run: VerificationView): { text: string; value: number | null } {
  const { progress } = run;
  if (run.status === 'queued' || !progress)
    return { text: 'Waiting for a worker to start the run…', value: null };
  const share = progress.total ? Math.min(1, progress.done / progress.total) : null;
  switch (progress.phase) {
    case 'replaying':
      return {
        text: `Replaying the event log: ${number(progress.done)}${progress.total ? ` of about ${number(progress.total)}` : ''} events`,
        value: share,
      };
    case 'comparing':
      return {
        text: `Comparing table by table: ${number(progress.done)} of ${number(progress.total ?? 0)} tables (${progress.projector})`,
        value: share,
      };
    case 'explaining':
      return {
        text: `Finding the events behind ${number(progress.total ?? 0)} differing rows`,
        value: share,
      };
  }
}

/** Where a run in progress is; the bar is indeterminate until the workers have reported. */
export function VerificationProgress({ run }: { run: VerificationView }) {
  const { text, value } = describe(run);
  const percent = value === null ? null : Math.round(value * 100);
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted-foreground">{text}</p>
      <div
        role="progressbar"
        aria-label="Verification progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={`h-full rounded-full bg-primary transition-[width] ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
