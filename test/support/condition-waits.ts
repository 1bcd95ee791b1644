/**
 * Waits for conditions on something a test watches change (the log, a mail server, a job sink): each change makes
 * every waiter look at its condition again. A wait resolves once its condition holds, rejects with the condition's
 * error if it throws, and rejects after `timeoutMs` naming what it waited for.
 */
export function conditionWaits() {
  const waiters = new Set<() => void>();
  return {
    /** Something changed: every waiter looks again. */
    changed() {
      for (const waiter of [...waiters]) waiter();
    },
    until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        const check = () => {
          try {
            if (condition()) finish(resolve);
          } catch (error) {
            finish(() => reject(error));
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))),
          timeoutMs,
        );
        waiters.add(check);
        check();
      });
    },
  };
}
