// `npm run migrate`: every schema (event store, read model, api, workers) and, in development or with SEED_DEMO=1,
// the demo store on an empty store, against the configured DATABASE_URL (and EVENTSTORE_CONNECTION_STRING). For
// deployments where each role runs on its own (docker compose's `migrate` service); `npm start` does the same
// itself. Also keeps the generated SESSION_SECRET and LICENSE_KEY_SECRET in DATA_DIR when none is configured, for
// roles that share that volume.
import { ConfigError, loadConfig, requireUrl, simulatedPaymentsWarning } from '@licensestore/platform/config';
import { prepareStore } from './lib/prepare.js';
import { resolveLicenseKeySecret, resolveSessionSecret } from './lib/secrets.js';

const log = (line: string) => console.log(`migrate | ${line}`);

try {
  const config = loadConfig();
  const warning = simulatedPaymentsWarning(config);
  if (warning) log(`warning: ${warning}`);
  await resolveSessionSecret(config.DATA_DIR, config.SESSION_SECRET);
  await prepareStore({
    databaseUrl: requireUrl(config, 'DATABASE_URL'),
    eventStoreConnectionString: config.EVENTSTORE_CONNECTION_STRING,
    licenseKeySecret: await resolveLicenseKeySecret(config.DATA_DIR, config.LICENSE_KEY_SECRET),
    seedDemo: config.SEED_DEMO,
    log,
  });
  log('done');
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
