import { cn } from '@/lib/cn';

/**
 * Admin badge styling: completed default, pending secondary, cancelled destructive, any other
 * status outline. Compared case-insensitively, like the customer-side badge.
 */
const STYLES: Record<string, string> = {
  completed: 'bg-primary text-primary-foreground',
  pending: 'bg-muted text-foreground',
  // The dark theme's destructive red is too light under small white text (axe: 3.6:1); the sale red is the same
  // hue made dark enough for it.
  cancelled: 'bg-destructive-solid text-destructive-foreground',
};
const OTHER = 'border border-border text-foreground';

export function AdminOrderStatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize',
        STYLES[status.toLowerCase()] ?? OTHER,
        className,
      )}
    >
      {status}
    </span>
  );
}
