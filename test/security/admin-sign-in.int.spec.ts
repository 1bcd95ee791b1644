import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELAY } from '../../services/api/src/auth/login-throttle.js';
import { startTestApi, type TestApi } from '../../services/api/test/support/api.js';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const PAUSED =
  /^This account had too many failed sign-ins, from any address\. Try again in \d+ seconds?; each further failure doubles the wait, up to 5 minutes, and signing in resets it\.$/;

describe('Back-office sign-in guessed from many addresses', () => {
  let api: TestApi;
  /** Each guess comes from an address of its own (TRUST_PROXY=loopback), as from a botnet. */
  let addresses = 0;
  const nextAddress = () => `198.51.100.${++addresses}`;

  const signIn = (username: string, password: string, address = nextAddress()) =>
    fetch(`${api.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ username, password }),
    });
  const failTimes = async (username: string, times: number) => {
    for (let n = 0; n < times; n++) expect((await signIn(username, `wrong ${n}`)).status).toBe(401);
  };
  /** Tries until the account's pause is over; the tries refused meanwhile count for nothing. */
  const afterThePause = (username: string, password: string) =>
    expect
      .poll(async () => (await signIn(username, password)).status, { timeout: 10_000, interval: 200 })
      .not.toBe(429);

  beforeAll(async () => {
    api = await startTestApi({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: 'loopback' },
    });
  });
  afterAll(() => api?.stop());

  it(`pauses the account after ${ACCOUNT_DELAY.afterFailures} failures, whatever the addresses: 429, Retry-After and a sentence`, async () => {
    await failTimes(ADMIN.username, ACCOUNT_DELAY.afterFailures);
    const paused = await signIn(ADMIN.username, 'another guess');
    expect(paused.status).toBe(429);
    expect(Number(paused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(paused.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    expect(await paused.json()).toEqual({ error: expect.stringMatching(PAUSED) });

    // The real admin is delayed, never shut out: once the pause is over the password works, and resets the count.
    await afterThePause(ADMIN.username, ADMIN.password);
    expect((await signIn(ADMIN.username, ADMIN.password)).status).toBe(200);
    expect((await signIn(ADMIN.username, 'a guess after the reset')).status).toBe(401);
  });

  it('doubles the pause with each further failure', async () => {
    const username = `ghost-${randomUUID().slice(0, 8)}`;
    await failTimes(username, ACCOUNT_DELAY.afterFailures);
    const first = await signIn(username, 'guess');
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(2);

    await afterThePause(username, 'a failure after the first pause');
    const second = await signIn(username, 'guess');
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(2);
    expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(4);
  });

  it('lets no more parallel guesses through than the failures before the pause', async () => {
    const username = `ghost-${randomUUID().slice(0, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, n) => (await signIn(username, `parallel ${n}`)).status),
    );
    expect(answers.filter((status) => status === 401)).toHaveLength(ACCOUNT_DELAY.afterFailures);
    expect(answers.filter((status) => status === 429)).toHaveLength(12 - ACCOUNT_DELAY.afterFailures);
  });
});
