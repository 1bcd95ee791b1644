import { setTimeout as delay } from 'node:timers/promises';
import {
  parseOrderEvent,
  RISK_WHAT_IF_QUEUE,
  RISK_WHAT_IF_STREAM,
  type RiskEvent,
  WHAT_IF_EVENT_TYPES,
  WhatIfFold,
  type WhatIfJob,
  type WhatIfResult,
  whatIfJobSchema,
} from '@licensestore/domain';
import type { EventStore, Position } from '@licensestore/domain/events';
import { streamCategory } from '@licensestore/domain/events';
import type { Logger } from '@licensestore/platform/logging';
import { type BackOfficeQueue, consumeBackOfficeJobs } from '../back-office-jobs.js';

/**
 * Events read from the log at a time: a page is folded and let go before the next is read, and the projectors
 * sharing this process's event loop wait for one page's fold at most (a few milliseconds).
 */
const PAGE = 500;
/**
 * After each page the run rests this many times as long as the page took (its read in the database and its fold
 * here), so it takes an eleventh of a core at most, which checkouts beside it hardly feel; resting, it still ends
 * within the time a projector takes to rebuild from the same log.
 */
const REST_PER_WORK = 10;

/**
 * What the draft would have held in the period, computed from the log as a read model nobody keeps: the order
 * events the fold reads, from the start (earlier orders are the history first-order and velocity rules read),
 * folded in memory and let go. It reads the log only, never the live read tables, so a run holds no lock and writes
 * nothing a checkout or a projector waits on; then the run (who, when, the draft, the figures) is recorded for
 * auditors.
 */
export async function runWhatIf(eventStore: EventStore, job: WhatIfJob): Promise<WhatIfResult> {
  const fold = new WhatIfFold(job.draft, job.current, job.period);
  let after: Position | null = null;
  for (;;) {
    const started = performance.now();
    const page = await eventStore.readAllOfTypes(after, PAGE, WHAT_IF_EVENT_TYPES);
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
  const run: RiskEvent = {
    type: 'RiskWhatIfRun',
    data: { draft: job.draft, result, ranAt: new Date().toISOString() },
  };
  await eventStore.append(RISK_WHAT_IF_STREAM, [{ ...run, metadata: job.metadata }], 'any');
  return result;
}

const safely = <T>(read: () => T): T | null => {
  try {
    return read();
  } catch {
    return null;
  }
};

/** Takes the admins' what-ifs off their queue, one at a time; the figures are the job's return value. */
export function consumeWhatIfs(
  queue: BackOfficeQueue,
  deps: { eventStore: EventStore; logger: Logger },
): Promise<() => Promise<void>> {
  return consumeBackOfficeJobs(RISK_WHAT_IF_QUEUE, whatIfJobSchema, queue, deps.logger, async (job) => {
    const started = performance.now();
    const result = await runWhatIf(deps.eventStore, job);
    deps.logger.info(
      { orders: result.orders, ms: Math.round(performance.now() - started) },
      'what-if finished',
    );
    return result;
  });
}
