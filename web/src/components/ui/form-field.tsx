import type { ReactElement } from 'react';
import { Label } from '@/components/ui/label';

/**
 * A label, its control and the control's problem. The control gets its id, aria-invalid and aria-describedby
 * from here (through the render function), so every field is wired the same way.
 */
export function FormField({
  id,
  label,
  problem,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  problem?: string;
  /** A short help text under the control, read out with it. */
  hint?: string;
  className?: string;
  children: (control: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactElement;
}) {
  const problemId = `${id}-problem`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, problem ? problemId : null].filter(Boolean).join(' ');
  return (
    <div className={`grid content-start gap-2 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': problem ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {problem && (
        <p id={problemId} className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
