import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { waitForProjections } from '@licensestore/platform/readmodel';

const WAIT_MS = 3000;

/**
 * Holds a command's response until the named projectors have applied what it appended, so the caller's next
 * read shows the change. Bounded: when projections lag, the command has still happened, so it answers anyway.
 */
export async function awaitReadModel(
  pool: DatabaseHandle['pool'],
  position: string,
  projectors: string[],
  logger: Logger,
): Promise<void> {
  const caughtUp = await waitForProjections(pool, position, { projectors, timeoutMs: WAIT_MS });
  if (!caughtUp)
    logger.warn({ position, projectors }, 'projections lag: answered before the read model caught up');
}
