import { isUnreadable, type LogEntry, type RecordedEvent } from '@licensestore/domain/events';
import type { Database } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { logParked, parkStatement } from '@licensestore/platform/parked-events';
import { readableEvents } from '@licensestore/platform/readmodel';
import { CompiledQuery, type Transaction } from 'kysely';

/**
 * Logs and parks, for `consumer`, the entries of a batch that do not read, in the transaction that moves its
 * checkpoint past them (so an event is parked exactly when it is passed); returns the readable ones.
 */
export async function parkUnreadable(
  trx: Transaction<Database>,
  entries: readonly LogEntry[],
  consumer: string,
  log: Logger,
): Promise<readonly RecordedEvent[]> {
  for (const entry of entries) {
    if (!isUnreadable(entry)) continue;
    logParked(log, entry, { projector: consumer });
    const { text, values } = parkStatement(entry, consumer);
    await trx.executeQuery(CompiledQuery.raw(text, values));
  }
  return readableEvents(entries);
}
