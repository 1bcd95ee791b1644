import type { DatabaseHandle } from '@licensestore/platform/db';
import type { Logger } from '@licensestore/platform/logging';
import type { CachedAnswer } from '../http/cached-answer.js';
import { ProjectionAdvances } from '../http/projection-advances.js';

const PRODUCTS_PROJECTOR = 'products';

/** While listening: the LISTEN connection is up once `ready` resolves. */
interface Listener {
  ready: Promise<void>;
}

/** One key's answer: while loading, shared by everyone who asks meanwhile; then at hand. */
interface Kept {
  loading: Promise<CachedAnswer | null>;
  /** Set once loaded: what `kept` hands out without waiting. */
  answer?: CachedAnswer;
}

/**
 * The catalogue's answers (JSON bytes and strong ETag, and the storefront's pages drawn from them) kept in memory, so
 * a browsing storefront costs no query.
 * Only the products projector writes what they are made of, and each of its commits NOTIFYs its checkpoint: on that
 * notification (LISTEN on one pooled connection) every answer is dropped, so every instance sees a change as soon
 * as Postgres announces it. The instance that made the change drops them itself too, before it answers the write
 * (`invalidate`), so its caller reads it at once. Nothing is served from memory without a working LISTEN: before it
 * is up, or once its connection broke (notifications may have been missed), answers come from the database.
 * Only what was found is kept (null is not): keys are bounded by the catalogue, not by what callers ask for.
 */
export class CatalogueCache {
  /** Only while listening: dropped whenever a change is announced or could have gone unheard. */
  private readonly answers = new Map<string, Kept>();
  private readonly advances: ProjectionAdvances;
  private listener: Listener | null = null;
  private closed: boolean;

  /**
   * `closing` stops it (the LISTEN connection goes back to the pool); without one it never listens, since its
   * connection would keep the pool from ever closing, and every answer comes from the database.
   */
  constructor(pool: DatabaseHandle['pool'], logger: Logger, closing: AbortSignal | undefined) {
    this.closed = !closing;
    closing?.addEventListener('abort', () => void this.close(), { once: true });
    this.advances = new ProjectionAdvances(
      pool,
      {
        listener: 'catalogue cache',
        advanced: (projector) => {
          if (projector === PRODUCTS_PROJECTOR) this.invalidate();
        },
        lost: () => {
          this.listener = null;
          this.invalidate();
        },
      },
      logger,
    );
  }

  /** The answer under `key` when memory has it, at once: what nearly every request finds, so it costs no wait. */
  kept(key: string): CachedAnswer | undefined {
    return this.answers.get(key)?.answer;
  }

  /** The answer under `key`, from memory or from `load` (null: nothing to answer, not kept). */
  async get(key: string, load: () => Promise<CachedAnswer | null>): Promise<CachedAnswer | null> {
    const listener = await this.listening();
    // The connection may have broken while this caller waited: then nothing may be kept.
    if (!listener || this.listener !== listener) return load();
    const found = this.answers.get(key);
    if (found) return found.loading;
    const kept: Kept = { loading: load() };
    this.answers.set(key, kept);
    const forget = () => {
      if (this.answers.get(key) === kept) this.answers.delete(key);
    };
    kept.loading.then((answer) => {
      if (answer) kept.answer = answer;
      else forget();
    }, forget);
    return kept.loading;
  }

  /** Everything is loaded again on next use. */
  invalidate(): void {
    this.answers.clear();
  }

  /** Hands the LISTEN connection back to the pool; answers come from the database from now on. */
  private async close(): Promise<void> {
    this.closed = true;
    this.listener = null;
    this.invalidate();
    await this.advances.stop();
  }

  /** The current listener once it listens; null when closed or when the connection cannot be had now. */
  private async listening(): Promise<Listener | null> {
    if (this.closed) return null;
    if (!this.listener) {
      const listener: Listener = { ready: this.advances.start() };
      this.listener = listener;
      listener.ready.catch(() => {
        if (this.listener === listener) this.listener = null;
      });
    }
    const listener = this.listener;
    try {
      await listener.ready;
      return listener;
    } catch {
      return null;
    }
  }
}
