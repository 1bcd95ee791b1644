import type { ReactNode } from 'react';

/**
 * One fact an auditor may want beside a step: `name` values (an event's stored type) never break inside, `id`
 * values (hashes, message ids) may break anywhere, having no words to keep whole.
 */
export type AuditDetail = [label: string, value: string, kind: 'name' | 'id'];

/**
 * What a step records beyond its sentence (the stored event type, the ids a person does not read), closed until an
 * auditor opens it.
 */
export function AuditDetails({ details, children }: { details: AuditDetail[]; children?: ReactNode }) {
  return (
    <details className="min-w-0 text-xs">
      <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary">
        Details
      </summary>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        {details.map(([label, value, kind]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className={kind === 'name' ? 'font-mono whitespace-nowrap' : 'font-mono break-all'}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {children}
    </details>
  );
}
