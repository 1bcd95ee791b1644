export { jsonLogger, type Logger, silentLogger } from '@licensestore/platform/logging';
export { auditLogProjector } from './audit-log/projector.js';
export { type CustomerRow, customersProjector, foldCustomerEvents } from './customers/projector.js';
export { dashboardProjector } from './dashboard/projector.js';
export {
  foldLicenseKeyEvents,
  type LicenseKeyRow,
  licenseKeysProjector,
  type StockChange,
} from './license-keys/projector.js';
export { type ProjectionsOptions, startProjections } from './main.js';
export { migrateReadModel } from './migrations/index.js';
export {
  type FoldedOrder,
  foldOrderEvents,
  type OrderItemRow,
  type OrderRow,
  ordersProjector,
} from './orders/projector.js';
export {
  type FoldedProduct,
  foldProductEvents,
  type ProductRow,
  productsProjector,
} from './products/projector.js';
export { type ApplyContext, createProjectorTables, type Projector } from './projector.js';
export { allProjectors, projectorsNamed } from './projectors.js';
export {
  type RebuildManyOptions,
  type RebuildOptions,
  type RebuildResult,
  rebuildProjector,
  rebuildProjectors,
} from './rebuild.js';
export { type BatchApplied, type RunProjectorsOptions, runProjectors } from './runner.js';
