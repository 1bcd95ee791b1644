import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** Why a form was not sent or not accepted, as a whole (not one field's problem), announced when it appears. */
export function FormAlert({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <p
      role="alert"
      className={cn('rounded-md border border-destructive p-3 text-sm text-destructive', className)}
    >
      {children}
    </p>
  );
}
