import type { VerificationStatus } from '@licensestore/domain/audit-verify';
import { cn } from '@/lib/cn';

const LABELS: Record<VerificationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  passed: 'Passed',
  failed: 'Differences found',
  error: 'Could not run',
};

// Solid red for both bad outcomes: the store's dark-enough red under small white text, as the cancelled badge.
const STYLES: Record<VerificationStatus, string> = {
  queued: 'bg-muted text-foreground',
  running: 'bg-muted text-foreground',
  passed: 'bg-primary text-primary-foreground',
  failed: 'bg-destructive-solid text-destructive-foreground',
  error: 'bg-destructive-solid text-destructive-foreground',
};

export function VerificationStatusBadge({ status }: { status: VerificationStatus }) {
  return (
    <span
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold',
        STYLES[status],
      )}
    >
      {LABELS[status]}
    </span>
  );
}
