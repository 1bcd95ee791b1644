import type { EventStore } from '@licensestore/domain/events';
import { type Config, ConfigError, databaseUrlForTool } from '@licensestore/platform/config';
import { openEventStore } from '@licensestore/platform/eventstore';

/** Bad arguments or configuration: the command did not run, so it exits 2 (1 is a failed run or a failed check). */
export class UsageError extends Error {}

/** node:util parseArgs throws these for unknown options, missing values and stray positionals. */
const isParseArgsError = (error: unknown) =>
  String((error as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');

/** Runs a CLI's main and exits with its code: 2 for usage and configuration errors, 1 for anything else thrown. */
export function runCli(main: (argv: string[]) => Promise<number>, usage: string): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      if (error instanceof UsageError || isParseArgsError(error)) {
        console.error(usage);
        process.exit(2);
      }
      process.exit(error instanceof ConfigError ? 2 : 1);
    },
  );
}

/**
 * The event store a command reads, as the roles open it: EventStoreDB when configured, else the Postgres store; its
 * database is DATABASE_URL, or that of the `npm start` running beside it.
 */
export async function openConfiguredEventStore(
  config: Config,
): Promise<{ databaseUrl: string; store: EventStore }> {
  const databaseUrl = await databaseUrlForTool(config);
  const store = await openEventStore({
    databaseUrl,
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
  });
  return { databaseUrl, store };
}

/** Aborted by Ctrl-C or SIGTERM, so a long replay stops between batches and cleans up after itself. */
export function abortedOnSignal(): AbortSignal {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  return controller.signal;
}
