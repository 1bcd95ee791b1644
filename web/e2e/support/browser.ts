import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 } as const;
/** Below the 768 px width where the layout turns to phones'. */
export const PHONE = { width: 390, height: 844 } as const;

export interface TestPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far; a page that works logs none. */
  errors: string[];
  close: () => Promise<void>;
}

/** A page in a fresh context (its own local storage and cookies) that records what goes wrong in it. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: BrowserContextOptions = {},
): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  const errors: string[] = [];
  // Chromium logs every failed fetch as an error, so a failed request counts too.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() };
}

/**
 * Opens `path` as a move within the running app, not a page load: the public pages arrive drawn by the server with
 * their data, so what the browser shows while it asks the store itself (placeholders, a failed answer) is seen only
 * when it comes from another page. The app starts on a page it alone draws (an unknown path), then moves as a link
 * would, through the history API its router follows.
 */
export async function arriveInBrowser(page: Page, path: string): Promise<void> {
  await page.goto('/no-such-page');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's WCAG 2.x A/AA rules over the page as it is now. Evaluated through the DevTools protocol, which the
 * page's CSP (script-src 'self') does not govern, so the scan needs no weakening of the policy.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** Waits for the toast on screen (one at a time) with this title, and checks its description. */
export async function toastSaying(page: Page, title: string, description?: string): Promise<void> {
  const toast = page.getByRole('status').filter({ hasText: title });
  // One look for both texts: a toast lasts five seconds, which a second round trip may outlast on a loaded machine.
  await (description === undefined ? toast : toast.filter({ hasText: description })).waitFor();
}

/**
 * Answers to requests `url` matches (a glob, a pattern or a test of the URL, as Playwright's route takes) wait until
 * the returned function is called: what the page shows before them stays on screen meanwhile.
 */
export async function hold(page: Page, url: Parameters<Page['route']>[0]): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((done) => {
    release = done;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
