// The supervisor's bookkeeping, shared by `npm start` and `npm run start:cluster`: every process it started, the
// restart of a role that crashed, and the orderly stop.

import { backoffDelay } from '@licensestore/domain/backoff';
import { type RoleName, type RoleProcess, spawnRole } from './roles.js';
import type { LocalServices } from './services.js';

/** Roles stop in this order: no new requests first, then side effects, then the read model, then the emulator. */
const STOP_ORDER: RoleName[] = ['api', 'workers', 'projections', 'paypal-sandbox'];
const ROLE_GRACE_MS = 20_000;
/** npm forwards the terminal's SIGINT to the script as well: a repeat this soon is the same Ctrl-C. */
const SAME_SIGNAL_MS = 500;
/** A role that ran this long before it crashed is restarted after the shortest delay again. */
const HEALTHY_RUN_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

/** One process of a role: `api-1`, or just `api` when the role runs once. */
export interface RoleInstance {
  label: string;
  role: RoleName;
  env: NodeJS.ProcessEnv;
}

export class Aborted extends Error {}

/** Everything the supervisor started, so a stop at any point takes down exactly what is running. */
export class Stack {
  services: LocalServices | undefined;
  /** The load balancer in front of the api instances: it stops taking connections as the api stops. */
  frontDoor: { stop: () => Promise<void> } | undefined;
  /** The current process of each instance, by label. */
  readonly roles = new Map<string, RoleProcess>();
  release: (() => Promise<void>) | undefined;
  readonly cleanup: Array<() => Promise<void>> = [];
  exitCode = 0;
  private stopping: Promise<void> | undefined;
  private stopRequestedAt = 0;
  private readonly spawnWatchers = new Set<() => void>();
  private markStopped: () => void = () => {};
  /** Resolves once an orderly stop has finished. */
  readonly stopped = new Promise<void>((done) => {
    this.markStopped = done;
  });

  constructor(
    private readonly root: string,
    /** The supervisor's own lines. */
    readonly log: (line: string) => void,
    /** Every line a role prints, already prefixed with its label. */
    readonly out: (line: string) => void,
  ) {}

  get isStopping() {
    return this.stopping !== undefined;
  }

  assertRunning() {
    if (this.stopping) throw new Aborted();
  }

  /** A part failed: stop everything and exit non-zero. */
  fail(reason: string) {
    if (this.stopping) return;
    this.log(reason);
    this.exitCode = 1;
    void this.stop();
  }

  /** Orderly stop: api (and the load balancer), workers, projections, the emulator, then Redis and Postgres. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const frontDoor = this.frontDoor?.stop();
      for (const name of STOP_ORDER) {
        const group = [...this.roles.values()].filter((role) => role.name === name);
        if (group.length === 0) continue;
        this.log(`stopping ${group.map((role) => role.label).join(', ')}`);
        await Promise.all(group.map((role) => role.stop(ROLE_GRACE_MS)));
        if (name === 'api') await frontDoor;
      }
      await frontDoor;
      if (this.services) {
        this.log('stopping Redis and Postgres');
        await this.services.stop();
      }
      for (const step of this.cleanup) await step().catch(() => {});
      await this.release?.();
      this.log('stopped');
    })().finally(() => this.markStopped());
    return this.stopping;
  }

  /** Second Ctrl-C: kill every process group at once (Postgres and the Redis AOF recover on the next start). */
  force() {
    for (const role of this.roles.values()) role.kill();
    this.services?.kill();
    void (this.release?.() ?? Promise.resolve()).finally(() => process.exit(130));
  }

  onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (!this.stopping) {
      this.stopRequestedAt = now;
      this.log(`${signal}: stopping (Ctrl-C again to force)`);
      void this.stop();
    } else if (now - this.stopRequestedAt > SAME_SIGNAL_MS) {
      this.log(`${signal}: forcing`);
      this.force();
    }
  };

  /**
   * Starts an instance and keeps it running: before the store is serving (`starting` not yet aborted), an instance
   * that exits fails the start; after that, it is restarted with a growing delay (reset once it has run a minute).
   */
  supervise(instance: RoleInstance, starting: AbortSignal, attempt = 0) {
    const role = spawnRole(this.root, instance.role, instance.env, this.out, instance.label);
    this.roles.set(instance.label, role);
    for (const watcher of [...this.spawnWatchers]) watcher();
    const startedAt = Date.now();
    void role.exited.then((code) => {
      if (this.isStopping) return;
      if (!starting.aborted) {
        this.fail(`${instance.label} exited (${code}) while starting`);
        return;
      }
      const next = Date.now() - startedAt > HEALTHY_RUN_MS ? 0 : attempt + 1;
      const delay = backoffDelay(next, { firstMs: 1000, maxMs: MAX_RESTART_DELAY_MS });
      this.log(`${instance.label} exited (${code}); restarting in ${delay / 1000}s`);
      setTimeout(() => {
        if (!this.isStopping) this.supervise(instance, starting, next);
      }, delay);
    });
  }

  /** Resolves with the process that replaced `previous` (the supervisor's restart after a crash). */
  replacement(previous: RoleProcess): Promise<RoleProcess> {
    return new Promise((resolve) => {
      const check = () => {
        const current = this.roles.get(previous.label);
        if (current && current !== previous) {
          this.spawnWatchers.delete(check);
          resolve(current);
        }
      };
      this.spawnWatchers.add(check);
      check();
    });
  }
}
