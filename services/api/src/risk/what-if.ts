import { setTimeout as delay } from 'node:timers/promises';
import {
  parseOrderEvent,
  RISK_WHAT_IF_STREAM,
  type RiskEvent,
  type RiskRules,
  WhatIfFold,
  type WhatIfResult,
} from '@licensestore/domain';
import type { EventStore, NewEventMetadata, Position } from '@licensestore/domain/events';
import { streamCategory } from '@licensestore/domain/events';

/** Events read from the log at a time: a page is folded and let go before the next is read. */
const PAGE = 5_000;
/**
 * After each page the run rests twice as long as the page took, so the api's own work for it is a third of a core at
 * most and its event loop stays free for checkouts. Postgres's side of reading the log is not throttled by this.
 */
const REST_PER_WORK = 2;

/** The period a what-if covers when the request names none: the twelve months up to `now`. */
export function lastTwelveMonths(now: Date): { from: string; to: string } {
  const from = new Date(now);
  from.setUTCFullYear(from.getUTCFullYear() - 1);
  return { from: from.toISOString(), to: now.toISOString() };
}

/**
 * What the draft would have held in the period, computed from the log as a read model nobody keeps: every order
 * event from the start (earlier orders are the history first-order and velocity rules read), folded in memory and
 * let go. It reads the log only, never the live read tables, so a run holds no lock and writes nothing a checkout
 * or a projector waits on, and it rests between pages (REST_PER_WORK); then the run (who, when, the draft, the
 * figures) is recorded for auditors.
 */
export async function runWhatIf(
  eventStore: EventStore,
  { draft, current, period }: { draft: RiskRules; current: RiskRules; period: { from: string; to: string } },
  metadata: NewEventMetadata,
): Promise<WhatIfResult> {
  const fold = new WhatIfFold(draft, current, period);
  let after: Position | null = null;
  for (;;) {
    const started = performance.now();
    const page = await eventStore.readAll(after, PAGE);
    for (const entry of page) {
      if ('unreadable' in entry || streamCategory(entry.streamId) !== 'order') continue;
      // An order event that does not parse is a fact this replay cannot use, as a projector skips it.
      const event = safely(() => parseOrderEvent(entry.type, entry.data));
      if (event) fold.apply(event);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.position ?? after;
    await delay((performance.now() - started) * REST_PER_WORK);
  }
  const result = fold.result();
  const run: RiskEvent = { type: 'RiskWhatIfRun', data: { draft, result, ranAt: new Date().toISOString() } };
  await eventStore.append(RISK_WHAT_IF_STREAM, [{ ...run, metadata }], 'any');
  return result;
}

const safely = <T>(read: () => T): T | null => {
  try {
    return read();
  } catch {
    return null;
  }
};
