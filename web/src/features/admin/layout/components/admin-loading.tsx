import { cn } from '@/lib/cn';

/** The centred 'Loading...' shown while the admin status loads, for the admin status and for a screen's code still on its way. */
export function AdminLoading({ className }: { className?: string }) {
  return (
    <div role="status" className={cn('flex min-h-svh items-center justify-center', className)}>
      <span className="text-muted-foreground">Loading...</span>
    </div>
  );
}
