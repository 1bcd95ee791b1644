import type { ReactNode } from 'react';
import { formatDateTime } from '@/lib/date-time';
import { KeepWhole } from './keep-whole';

/**
 * One step of an audit trail (an order's events, a key's custody) as an item of a vertical line: what happened,
 * when, the plain sentence about it, then what the trail adds (who did it, the details an auditor opens).
 */
export function AuditStep({
  title,
  at,
  summary,
  children,
}: {
  title: string;
  at: string;
  summary: string | null;
  children: ReactNode;
}) {
  return (
    <li className="relative grid gap-1 border-l-2 border-border pb-5 pl-5 last:pb-0">
      <span aria-hidden="true" className="absolute top-1.5 -left-[5px] size-2 rounded-full bg-primary" />
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="font-medium">{title}</h3>
        <time dateTime={at} className="text-sm text-muted-foreground tabular-nums">
          {formatDateTime(at)}
        </time>
      </div>
      {summary && (
        <p className="text-sm break-words">
          <KeepWhole text={summary} />
        </p>
      )}
      {children}
    </li>
  );
}
