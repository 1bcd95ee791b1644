import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const WEB = fileURLToPath(new URL('../..', import.meta.url));

/** The browser tests run against web/dist as `npm start` serves it: built once per run, from the code under test. */
export default async function setup() {
  await build({ root: WEB, configFile: `${WEB}/vite.config.ts`, logLevel: 'warn' });
}
