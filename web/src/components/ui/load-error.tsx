import { AlertCircle } from 'lucide-react';
import { errorSentence } from '@/lib/api';
import { Button } from './button';

/** What a section shows when its data could not be loaded: the reason and a way to try again. */
export function LoadError({
  title,
  error,
  onRetry,
  retrying,
}: {
  title: string;
  error: Error;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-border bg-card p-6">
      <p className="flex items-center gap-2 font-medium">
        <AlertCircle aria-hidden="true" className="size-5 text-destructive" />
        {title}
      </p>
      <p className="text-sm text-muted-foreground">{errorSentence(error)}</p>
      <Button variant="outline" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Try again'}
      </Button>
    </div>
  );
}
