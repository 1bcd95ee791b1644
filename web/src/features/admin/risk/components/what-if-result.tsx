import type { WhatIfResult } from '@licensestore/domain';
import { Table, TableBody, TableCell, TableHeader, TableHeaderRow, TableRow } from '@/components/ui/table';
import { formatPrice } from '@/lib/format';
import { RULE_LABELS } from './reviews-table';
import { WhatIfChart } from './what-if-chart';

const day = (at: string) => new Date(at).toLocaleDateString('en-US', { dateStyle: 'medium' });

/** A what-if's answer: the figures for the period, then per rule and per month, as tables and a chart. */
export function WhatIfResultView({ result }: { result: WhatIfResult }) {
  return (
    <section aria-labelledby="what-if-result" className="grid gap-4">
      <h3 id="what-if-result" className="text-lg font-semibold">
        What the draft would have done, {day(result.from)} to {day(result.to)}
      </h3>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        {[
          ['Orders in the period', String(result.orders)],
          ['Would have been held', String(result.held)],
          ['Value held', formatPrice(result.heldValue)],
          ['Of those, later refunded or denied', String(result.heldLaterRefundedOrDenied)],
          ['Held by the current rules', String(result.currentRulesHeld)],
        ].map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <Table aria-label="Held per rule">
        <TableHeader>
          <TableHeaderRow columns={['Rule', 'Orders held', 'Value']} />
        </TableHeader>
        <TableBody>
          {result.perRule.map((rule) => (
            <TableRow key={rule.rule}>
              <TableCell>{RULE_LABELS[rule.rule]}</TableCell>
              <TableCell className="tabular-nums">{rule.held}</TableCell>
              <TableCell className="tabular-nums">{formatPrice(rule.heldValue)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <WhatIfChart months={result.perMonth} />
      <Table aria-label="Per month">
        <TableHeader>
          <TableHeaderRow
            columns={[
              'Month',
              'Orders',
              'Held',
              'Value held',
              'Refunded or denied later',
              'Held by current rules',
            ]}
          />
        </TableHeader>
        <TableBody>
          {result.perMonth.map((month) => (
            <TableRow key={month.month}>
              <TableCell>{month.month}</TableCell>
              <TableCell className="tabular-nums">{month.orders}</TableCell>
              <TableCell className="tabular-nums">{month.held}</TableCell>
              <TableCell className="tabular-nums">{formatPrice(month.heldValue)}</TableCell>
              <TableCell className="tabular-nums">{month.heldLaterRefundedOrDenied}</TableCell>
              <TableCell className="tabular-nums">{month.currentRulesHeld}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
