import type { Database } from '@licensestore/shared/db';
import type { RecordedEvent } from '@licensestore/shared/eventstore';
import type { Logger } from '@licensestore/shared/logging';
import type { Kysely, Transaction } from 'kysely';

export interface ApplyContext {
  /** Where the projector's tables are: `public` when live, a shadow schema during a rebuild. */
  schema: string;
  log: Logger;
}

/**
 * Turns events into rows of the tables it owns. `apply` receives a batch in log order inside the transaction
 * that also moves its checkpoint; it must never throw on a recorded event (bad data is logged and skipped),
 * only on infrastructure failure, which rolls the batch back for a retry.
 */
export interface Projector {
  readonly name: string;
  /** Bump when the rows it writes change shape or meaning: the runner then rebuilds its tables from zero. */
  readonly version: number;
  /** The tables it owns, swapped together after a rebuild. */
  readonly tables: readonly string[];
  /** Creates empty tables (with their indexes) in `schema`, which exists. */
  createTables(db: Kysely<Database>, schema: string): Promise<void>;
  apply(trx: Transaction<Database>, events: readonly RecordedEvent[], context: ApplyContext): Promise<void>;
}
