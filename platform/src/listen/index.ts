import type pg from 'pg';

/** One who listens on a channel through the pool's shared connection. */
export interface ChannelMember {
  /** A NOTIFY on the channel committed, with its payload ('' when none). */
  notified(payload: string): void;
  /**
   * The connection broke, so notifications may have been missed since: whatever was derived from them is stale.
   * The member is out; joining again takes a new connection.
   */
  lost(error: Error): void;
}

/** Runs steps one after the other, in call order, whatever became of the one before. */
export class Sequence {
  private last: Promise<void> = Promise.resolve();

  run<T>(step: () => Promise<T>): Promise<T> {
    const done = this.last.then(step);
    this.last = done.then(
      () => {},
      () => {},
    );
    return done;
  }
}

/**
 * The one LISTEN connection of a pool for a channel, shared by every member in the process: taken from the pool
 * when the first joins, handed back (UNLISTENed, without these handlers) when the last leaves, so an idle process
 * holds no connection for it and a busy one holds one, however many listen. Joins and leaves run one after the
 * other, in call order. A connection that breaks cannot be trusted to have delivered every notification: it is
 * destroyed and every member is told it lost.
 */
export class ChannelListener {
  private client: pg.PoolClient | null = null;
  private readonly members = new Set<ChannelMember>();
  private readonly steps = new Sequence();

  constructor(
    private readonly pool: pg.Pool,
    readonly channel: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`"${channel}" is not a plain channel name`);
  }

  private readonly onNotification = (message: pg.Notification) => {
    if (message.channel !== this.channel) return;
    for (const member of [...this.members]) member.notified(message.payload ?? '');
  };

  private readonly onError = (error: Error) => {
    const client = this.client;
    if (!client) return;
    this.client = null;
    // The error handler stays: the destroyed client may still emit while it closes.
    client.off('notification', this.onNotification);
    client.release(error);
    const lost = [...this.members];
    this.members.clear();
    for (const member of lost) member.lost(error);
  };

  /** Hears every notification committed after it resolves, until it leaves or the connection breaks. */
  join(member: ChannelMember): Promise<void> {
    return this.steps.run(async () => {
      if (!this.client) await this.open();
      this.members.add(member);
    });
  }

  leave(member: ChannelMember): Promise<void> {
    return this.steps.run(async () => {
      if (!this.members.delete(member)) return;
      if (this.members.size === 0) await this.close();
    });
  }

  /**
   * A query on the listening connection, for a member that must look at a table after it started listening (a
   * wait then costs one connection, not two). Fails when nobody is listening.
   */
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    if (!this.client) return Promise.reject(new Error(`nobody listens on ${this.channel}`));
    return this.client.query<R>(text, values);
  }

  private async open() {
    const client = await this.pool.connect();
    client.on('error', this.onError);
    client.on('notification', this.onNotification);
    try {
      await client.query(
        `LISTEN ${this.channel}; SET application_name = '${listeningApplicationName(this.channel)}'`,
      );
    } catch (error) {
      client.off('notification', this.onNotification);
      client.release(error as Error);
      throw error;
    }
    this.client = client;
  }

  private async close() {
    const client = this.client;
    if (!client) return;
    this.client = null;
    client.off('notification', this.onNotification);
    try {
      await client.query(`UNLISTEN ${this.channel}; RESET application_name`);
      client.off('error', this.onError);
      client.release();
    } catch (error) {
      client.release(error as Error);
    }
  }
}

/**
 * The application_name a listening connection carries while it listens, so pg_stat_activity shows an operator (and a
 * fault test) which connection holds a channel, whatever it last ran.
 */
export const listeningApplicationName = (channel: string) => `listen ${channel}`;

const listeners = new WeakMap<pg.Pool, Map<string, ChannelListener>>();

/** The pool's listener for `channel`: one per pool and channel in the process, whoever asks. */
export function channelListener(pool: pg.Pool, channel: string): ChannelListener {
  let byChannel = listeners.get(pool);
  if (!byChannel) {
    byChannel = new Map();
    listeners.set(pool, byChannel);
  }
  let listener = byChannel.get(channel);
  if (!listener) {
    listener = new ChannelListener(pool, channel);
    byChannel.set(channel, listener);
  }
  return listener;
}
