import type { BrowserContext } from 'playwright-core';
import { mailFiles, signInLinkIn } from '../../../test/support/mail.js';
import type { TestStore } from './store.js';

/**
 * The one-time sign-in link the store e-mails to `email`, read from the `.eml` file it writes into
 * `$DATA_DIR/mail` (a store started without SMTP_URL). Each call asks for a new link, and the store sends at most
 * 5 per address in 15 minutes.
 */
export async function requestSignInLink(store: Pick<TestStore, 'dataDir' | 'url'>, email: string) {
  const before = new Set((await mailFiles(store.dataDir)).keys());
  const response = await fetch(`${store.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (response.status !== 200) throw new Error(`asking for a sign-in link failed: ${response.status}`);
  const sent = [...(await mailFiles(store.dataDir))].filter(
    ([name, mail]) => !before.has(name) && mail.to.includes(email.toLowerCase()),
  );
  const [first] = sent;
  if (sent.length !== 1 || !first)
    throw new Error(`expected one sign-in e-mail to ${email}, found ${sent.length}`);
  return signInLinkIn(first[1]);
}

/** Session cookies by store and address: one link per customer per store, then the same session reused. */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext['cookies']>>>();

/**
 * Signs the browser context in as the customer with this e-mail address, the way a shopper does: the link e-mailed
 * to the address, opened in this context (the first time for this store and address; its session cookie after).
 */
export async function signInAsCustomer(
  context: BrowserContext,
  store: Pick<TestStore, 'dataDir' | 'url'>,
  email: string,
): Promise<void> {
  const key = `${store.url} ${email.toLowerCase()}`;
  const known = sessions.get(key);
  if (known) return context.addCookies(known);
  const { url } = await requestSignInLink(store, email);
  // As a browser opens a link from a mail program: a navigation of the visitor's own, which signs in at once.
  const landed = await context.request.get(url, { headers: { 'sec-fetch-site': 'none' } });
  if (!new URL(landed.url()).pathname.startsWith('/account')) {
    throw new Error(`the sign-in link for ${email} led to ${landed.url()} (${landed.status()})`);
  }
  sessions.set(key, await context.cookies(store.url));
}
