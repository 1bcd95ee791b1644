import { AppError, TooManyRequestsError } from '@licensestore/domain';

/** Bounds on the order event streams one api instance keeps open. */
export interface OrderStreamLimits {
  /** Open streams per client address: a page needs one; a few tabs and a reconnect fit. */
  perClient: number;
  /** Open streams in all, whoever holds them. */
  total: number;
  /** How long a write may wait for the client to read before the stream is cut (a client that stopped reading). */
  drainTimeoutMs: number;
  /**
   * How long one stream lasts; the page's EventSource then reconnects (and gets a fresh snapshot), so a client
   * that stopped reading, or went away without closing, holds its socket no longer than this.
   */
  maxAgeMs: number;
  /** How often an idle stream gets a comment, so proxies and the browser keep it open. */
  heartbeatMs: number;
}

export const ORDER_STREAM_LIMITS: OrderStreamLimits = {
  perClient: 10,
  total: 2000,
  drainTimeoutMs: 10_000,
  maxAgeMs: 60_000,
  heartbeatMs: 15_000,
};

/** What a refused client waits before asking again; EventSource reconnects on its own once the page retries. */
const RETRY_AFTER_SECONDS = 10;

/** What the refusals call the streams and their holders, e.g. `order streams` from `this address`. */
export interface StreamNames {
  streams: string;
  client: string;
}

const ORDER_STREAMS: StreamNames = { streams: 'order streams', client: 'this address' };

/** Counts open streams per client and in all; a stream over either cap is refused before it holds anything. */
export class StreamSlots {
  private readonly byClient = new Map<string, number>();
  private open = 0;

  constructor(
    private readonly limits: Pick<OrderStreamLimits, 'perClient' | 'total'>,
    private readonly names: StreamNames = ORDER_STREAMS,
  ) {}

  /** A slot for one more stream of `client`, given back by the returned function (once); 429 or 503 over a cap. */
  take(client: string): () => void {
    const held = this.byClient.get(client) ?? 0;
    if (held >= this.limits.perClient) {
      throw new TooManyRequestsError(
        `Too many open ${this.names.streams} from ${this.names.client} (at most ${this.limits.perClient})`,
        RETRY_AFTER_SECONDS,
      );
    }
    if (this.open >= this.limits.total) {
      throw new AppError(503, `Too many open ${this.names.streams}; try again shortly`);
    }
    this.byClient.set(client, held + 1);
    this.open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }
}
