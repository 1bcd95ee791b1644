import { createHmac, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

const sessionSchema = z.object({
  kind: z.enum(['admin', 'auditor', 'customer']),
  subjectId: z.string().min(1),
  username: z.string().optional(),
  createdAt: z.iso.datetime(),
});
export type Session = z.infer<typeof sessionSchema>;

/** 256 random bits, base64url: 43 characters. Anything else in the cookie is not one of ours. */
const TOKEN = /^[\w-]{43}$/;

/**
 * Server-side sessions in Redis. The cookie holds a random token; Redis holds only its HMAC, so a leaked
 * Redis dump (or a read of the keyspace) does not yield usable cookies. Expiry slides on every use.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly secret: string,
  ) {}

  private key(token: string) {
    return `session:${createHmac('sha256', this.secret).update(token).digest('hex')}`;
  }

  private revokedKey(subjectId: string) {
    return `session-revoked:${subjectId}`;
  }

  async create(session: Session): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(token), JSON.stringify(session), 'EX', SESSION_TTL_SECONDS);
    return token;
  }

  /** The session behind a token, its lifetime renewed; null when unknown, expired or malformed. */
  touch(token: string): Promise<Session | null> {
    return this.read(token, { renew: true });
  }

  /**
   * The session behind a token as `touch` finds it, its lifetime left as it is: for checking that a long-lived
   * response may go on, which is no use of the session (a back office left open in a tab does not keep it alive).
   */
  peek(token: string): Promise<Session | null> {
    return this.read(token, { renew: false });
  }

  private async read(token: string, { renew }: { renew: boolean }): Promise<Session | null> {
    if (!TOKEN.test(token)) return null;
    const stored = renew
      ? await this.redis.getex(this.key(token), 'EX', SESSION_TTL_SECONDS)
      : await this.redis.get(this.key(token));
    if (stored === null) return null;
    try {
      const parsed = sessionSchema.safeParse(JSON.parse(stored));
      if (!parsed.success) return null;
      if (
        parsed.data.kind !== 'customer' &&
        (await this.redis.exists(this.revokedKey(parsed.data.subjectId)))
      ) {
        await this.redis.del(this.key(token));
        return null;
      }
      return parsed.data;
    } catch {
      return null;
    }
  }

  /**
   * Ends every session of a deleted back-office user, wherever they signed in: each is refused (and dropped) at its
   * next use. The mark lives as long as a session can go unused, so no session outlives it; ids are never reused.
   */
  async revokeSubject(subjectId: string): Promise<void> {
    await this.redis.set(this.revokedKey(subjectId), '1', 'EX', SESSION_TTL_SECONDS);
  }

  async destroy(token: string): Promise<void> {
    if (TOKEN.test(token)) await this.redis.del(this.key(token));
  }
}
