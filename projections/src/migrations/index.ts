import { migrateToLatest, migratorFor } from '@licensestore/shared/db';
import { migrateParkedEvents } from '@licensestore/shared/parked-events';
import type { Kysely, Migration } from 'kysely';
import * as m20261122001 from './2026_11_22_001_create_read_model.js';
import * as m20261122002 from './2026_11_22_002_create_order_read_models.js';
import * as m20261122003 from './2026_11_22_003_create_licence_key_read_models.js';
import * as m20261124015 from './2026_11_24_015_create_audit_log.js';
import * as m20261124016 from './2026_11_24_016_create_dashboard_as_of_snapshots.js';
import * as m20261126017 from './2026_11_26_017_add_product_downloads.js';
import * as m20261126020 from './2026_11_26_020_add_order_payment_status.js';
import * as m20261126021 from './2026_11_26_021_add_refunds.js';
import * as m20261126023 from './2026_11_26_023_add_order_receipt_number.js';
import * as m20261126024 from './2026_11_26_024_create_key_history.js';
import * as m20261126030 from './2026_11_26_030_add_back_office_list_indexes.js';
import * as m20261126040 from './2026_11_26_040_add_licence_key_list_indexes.js';
import * as m20261126041 from './2026_11_26_041_add_licence_key_tail_hash.js';
import * as m20261126050 from './2026_11_26_050_add_product_key_format.js';
import * as m20261201060 from './2026_12_01_060_cap_trigram_pending_lists.js';
import * as m20261206070 from './2026_12_06_070_count_paid_orders.js';

/** Every read-schema migration, by frozen name; an explicit map (not a folder scan) so bundling cannot drop one. */
const migrations: Record<string, Migration> = {
  '2026_11_22_001_create_read_model': m20261122001,
  '2026_11_22_002_create_order_read_models': m20261122002,
  '2026_11_22_003_create_licence_key_read_models': m20261122003,
  '2026_11_24_015_create_audit_log': m20261124015,
  '2026_11_24_016_create_dashboard_as_of_snapshots': m20261124016,
  '2026_11_26_017_add_product_downloads': m20261126017,
  '2026_11_26_020_add_order_payment_status': m20261126020,
  '2026_11_26_021_add_refunds': m20261126021,
  '2026_11_26_023_add_order_receipt_number': m20261126023,
  '2026_11_26_024_create_key_history': m20261126024,
  '2026_11_26_030_add_back_office_list_indexes': m20261126030,
  '2026_11_26_040_add_licence_key_list_indexes': m20261126040,
  '2026_11_26_041_add_licence_key_tail_hash': m20261126041,
  '2026_11_26_050_add_product_key_format': m20261126050,
  '2026_12_01_060_cap_trigram_pending_lists': m20261201060,
  '2026_12_06_070_count_paid_orders': m20261206070,
};

/**
 * Brings the read schema up to date, with the table of parked events its projectors write to. Safe to call from
 * several processes at once (kysely's migration lock); throws the first failure.
 */
// biome-ignore lint/suspicious/noExplicitAny: works for any Database type; migrations are schema-agnostic
export async function migrateReadModel(db: Kysely<any>): Promise<void> {
  await migrateToLatest(migratorFor(db, migrations), 'read-model');
  await migrateParkedEvents(db);
}
