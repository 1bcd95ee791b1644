import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import type { Config } from './environment.js';

/**
 * The file in DATA_DIR where `npm start` writes the URLs of the services it runs, for tools run beside it
 * (owner-only, removed when it stops).
 */
export const STACK_ENV_FILE = 'stack.env';

/** A command-line tool that found no store: one sentence saying what to do, exit code 2 as for any configuration. */
export class NoRunningStoreError extends ConfigError {
  constructor(sentence: string) {
    super([sentence]);
    this.message = sentence;
    this.name = 'NoRunningStoreError';
  }
}

const ANSWER_TIMEOUT_MS = 2000;

/** Whether something accepts connections at the URL's host and port (Postgres's 5432 when it names none). */
function answers(url: URL): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 5432) });
    const end = (answered: boolean) => {
      socket.destroy();
      done(answered);
    };
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => end(false));
    socket.once('connect', () => end(true));
    socket.once('error', () => end(false));
  });
}

/** `KEY=value` lines, as `npm start` writes them. */
const parseEnvFile = (text: string) =>
  new Map(
    text
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => [match[1] as string, match[2] as string]),
  );

/**
 * The database a command-line tool works on: DATABASE_URL when set; otherwise the one a running `npm start` wrote
 * to $DATA_DIR/stack.env, which `say` announces. Refuses with a sentence when neither names a store that answers.
 */
export async function databaseUrlForTool(
  config: Config,
  say: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  const file = resolve(config.DATA_DIR, STACK_ENV_FILE);
  const advice = 'Start the store with `npm start` (or set DATABASE_URL to the store to use).';
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new NoRunningStoreError(
      `No store is running here: DATABASE_URL is not set and ${file} does not exist. ${advice}`,
    );
  }
  const databaseUrl = parseEnvFile(text).get('DATABASE_URL');
  if (!databaseUrl) throw new NoRunningStoreError(`${file} names no DATABASE_URL. ${advice}`);
  const url = new URL(databaseUrl);
  if (!(await answers(url))) {
    throw new NoRunningStoreError(
      `No store is running here: the database ${file} names (${url.host}) does not answer; ` +
        `the npm start that wrote it has stopped. ${advice}`,
    );
  }
  say(`Using the store npm start is running: DATABASE_URL from ${file}`);
  return databaseUrl;
}
