import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/date-time';
import { isRunning, useVerification } from '../api/verifications';
import { VerificationProgress } from './verification-progress';
import { VerificationReport } from './verification-report';
import { VerificationStatusBadge } from './verification-status-badge';

/** One run: its progress while it runs (polled every second), then what it found. */
export function CurrentVerification({ id }: { id: string }) {
  const query = useVerification(id);
  const { data: run, error, refetch, isRefetching } = query;
  if (error) {
    return (
      <LoadError
        title="The verification could not be loaded"
        error={error}
        onRetry={() => refetch()}
        retrying={isRefetching}
      />
    );
  }
  return (
    <Card aria-busy={!run || isRunning(run)}>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>
          {run ? `Run of ${formatDateTime(run.requestedAt)} by ${run.requestedBy}` : 'Verification'}
        </CardTitle>
        {run && <VerificationStatusBadge status={run.status} />}
      </CardHeader>
      <CardContent className="space-y-4">
        {!run ? (
          <Skeleton className="h-10 w-full" />
        ) : isRunning(run) ? (
          <VerificationProgress run={run} />
        ) : run.status === 'error' ? (
          <p role="alert" className="text-sm text-destructive">
            The check could not be made: {run.error}
          </p>
        ) : (
          <>
            <p role="status" className="font-medium">
              {run.status === 'passed'
                ? 'Every read model matches the replay of the event log.'
                : 'Some rows of the read models do not follow from the event log.'}
            </p>
            {run.report && <VerificationReport report={run.report} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}
