import type { OrderView } from '@licensestore/domain';
import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import { ProjectionAdvances } from '../http/projection-advances.js';
import { orderVersions } from './order-versions.js';
import type { StoredOrderItem } from './queries.js';

/** The order and its lines as the read model has them, keys still sealed: each page gets its own view of it. */
export interface OrderSnapshot {
  order: OrderView;
  items: StoredOrderItem[];
}

/** Where one page's updates go (an SSE response, which shows the snapshot as its caller may see it). */
export interface OrderSink {
  send: (snapshot: OrderSnapshot) => void;
  heartbeat: () => void;
  end: () => void;
}

interface Watcher {
  orderId: string;
  sink: OrderSink;
  /** The version of the last snapshot sent; null until the first one is. */
  version: string | null;
}

export interface OrderWatchOptions {
  database: DatabaseHandle;
  loadSnapshot: (orderId: string) => Promise<OrderSnapshot | null>;
  logger: Logger;
  /** How often an idle stream gets a comment, so proxies and the browser keep it open; default 15 s. */
  heartbeatMs?: number;
}

const ORDERS_PROJECTOR = 'orders';
const HEARTBEAT_MS = 15_000;

/**
 * Pushes an order's snapshot to every page watching it whenever the orders read model changes it. Scales with the
 * pages, not with them times the events: one LISTEN connection per process, and on each advance of the orders
 * projector one query compares the version of every watched order with what each page was last sent; only the
 * orders that changed are loaded again, once each. Advances arriving during a comparison are folded into one more.
 */
export class OrderWatch {
  private readonly watchers = new Set<Watcher>();
  /** Pages between asking and getting their first snapshot: the listener must stay up for them too. */
  private arriving = 0;
  private readonly advances: ProjectionAdvances;
  private heartbeat: NodeJS.Timeout | null = null;
  private comparing: Promise<void> | null = null;
  private compareAgain = false;
  private closed = false;

  constructor(private readonly options: OrderWatchOptions) {
    this.advances = new ProjectionAdvances(
      options.database.pool,
      {
        listener: 'order events',
        advanced: (projector) => {
          if (projector === ORDERS_PROJECTOR) this.scheduleComparison();
        },
        // Changes may have gone unseen: the pages reconnect (EventSource does so by itself) and start afresh.
        lost: () => this.endAll(),
      },
      options.logger,
    );
  }

  /**
   * Sends the order's snapshot to `sink` at once, then on every change, until the returned function is called.
   * Null (nothing sent) for an order the read model does not have.
   */
  async watch(orderId: string, sink: OrderSink): Promise<(() => void) | null> {
    if (this.closed) throw new Error('the order watch is closed');
    this.arriving++;
    try {
      // Listening first: a change committed after the version is read below is then always compared.
      await this.advances.start();
      // Version before snapshot: a change between the two reads makes the page get it again, never miss it.
      const version = (await orderVersions(this.options.database.db, [orderId])).get(orderId);
      const snapshot = version === undefined ? null : await this.options.loadSnapshot(orderId);
      if (!snapshot || version === undefined || this.closed) return null;
      sink.send(snapshot);
      const watcher: Watcher = { orderId, sink, version };
      this.watchers.add(watcher);
      this.heartbeat ??= setInterval(() => {
        for (const each of this.watchers) each.sink.heartbeat();
      }, this.options.heartbeatMs ?? HEARTBEAT_MS).unref();
      // A comparison that ran between the reads above and now did not know this page.
      this.scheduleComparison();
      return () => this.forget(watcher);
    } finally {
      this.arriving--;
      this.stopWhenIdle();
    }
  }

  /** Ends every stream (each page's EventSource will try again elsewhere) and hands the connection back. */
  async close(): Promise<void> {
    this.closed = true;
    this.endAll();
    await this.comparing;
    await this.advances.stop();
  }

  private forget(watcher: Watcher) {
    this.watchers.delete(watcher);
    this.stopWhenIdle();
  }

  /** Nobody watching: no timer, and the listening connection goes back to the pool. */
  private stopWhenIdle() {
    if (this.watchers.size > 0 || this.arriving > 0) return;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.advances.stop().catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'order events: stopping the checkpoint listener failed');
    });
  }

  private endAll() {
    for (const watcher of [...this.watchers]) {
      this.forget(watcher);
      watcher.sink.end();
    }
  }

  private scheduleComparison() {
    if (this.comparing) {
      this.compareAgain = true;
      return;
    }
    this.comparing = this.compareWhileAsked().finally(() => {
      this.comparing = null;
    });
  }

  private async compareWhileAsked() {
    do {
      this.compareAgain = false;
      try {
        await this.compare();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'order events: comparing watched orders failed');
      }
    } while (this.compareAgain && !this.closed);
  }

  private async compare() {
    if (this.watchers.size === 0) return;
    const byOrder = new Map<string, Watcher[]>();
    for (const watcher of this.watchers) {
      byOrder.set(watcher.orderId, [...(byOrder.get(watcher.orderId) ?? []), watcher]);
    }
    const versions = await orderVersions(this.options.database.db, [...byOrder.keys()]);
    for (const [orderId, watchers] of byOrder) {
      const version = versions.get(orderId);
      const behind = watchers.filter((watcher) => version !== undefined && watcher.version !== version);
      if (behind.length === 0) continue;
      const snapshot = await this.options.loadSnapshot(orderId);
      if (!snapshot) continue;
      for (const watcher of behind) {
        // Still watching: the page may have left while the snapshot loaded.
        if (!this.watchers.has(watcher)) continue;
        watcher.version = version ?? null;
        watcher.sink.send(snapshot);
      }
    }
  }
}
