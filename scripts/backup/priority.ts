import { setPriority } from 'node:os';

/**
 * A backup runs beside the store and must not hold up a purchase: its process takes a lower CPU priority (nice 10, a
 * tenth of a normal process's share when the machine is busy, all of what is idle otherwise), so under load the
 * api, workers and projections come first and the backup takes what they leave.
 */
const BACKUP_NICENESS = 10;

export function yieldToTheStore(): void {
  try {
    setPriority(BACKUP_NICENESS);
  } catch {
    // A system that refuses to change priorities runs the backup at the normal one.
  }
}
