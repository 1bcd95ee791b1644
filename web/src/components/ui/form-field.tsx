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
  className,
  children,
}: {
  id: string;
  label: string;
  problem?: string;
  className?: string;
  children: (control: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactElement;
}) {
  const problemId = `${id}-problem`;
  return (
    <div className={`grid content-start gap-2 ${className ?? ''}`}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': problem ? true : undefined,
        'aria-describedby': problem ? problemId : undefined,
      })}
      {problem && (
        <p id={problemId} className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
