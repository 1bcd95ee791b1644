/**
 * A read model's projector as the other roles know it: its name (the key of its checkpoint row) and the version its
 * tables must be built by. The api judges readiness and lag by these and the dashboard's time travel names its
 * snapshots by them, without loading the projections' code; each projector takes its own from here, so the two
 * cannot drift.
 */
export interface ProjectorDescriptor {
  readonly name: string;
  /**
   * Bump when the rows it writes or the tables it makes change: the runner then rebuilds its tables from zero, and
   * the new definition with them.
   */
  readonly version: number;
}

export const projectorDescriptors = {
  // 2: the official download URL and installation notes; 3: the license-key format.
  products: { name: 'products', version: 3 },
  // 2: lines carry their keys, orders their fulfilment and delivery e-mail; statuses exactly as evolveOrder.
  // 3: orders carry their payment status (pending review, completed, denied, refunded).
  // 4: refunds (their own rows, the refunded total, refunded units and key ids per line).
  // 5: orders carry their receipt number.
  // 6: orders carry their client address hash and their review by the risk rules (status, rules, when held).
  orders: { name: 'orders', version: 6 },
  // 3: money spent net of refunds (each order's refunded money kept beside its total).
  // 4: orders PayPal declined count for nothing (a buyer with only such orders is no customer).
  customers: { name: 'customers', version: 4 },
  // 3: revenue net of refunds (each order's refunded money kept beside its total); revoked keys count as neither.
  // 4: orders PayPal declined count as neither orders nor customers (customers are keys with an order not declined).
  dashboard: { name: 'dashboard', version: 4 },
  // 2: keys revoked or returned from refunded and cancelled orders; revoked keys counted per product.
  licenseKeys: { name: 'license-keys', version: 2 },
  auditLog: { name: 'audit-log', version: 1 },
  keyHistory: { name: 'key-history', version: 1 },
} as const satisfies Record<string, ProjectorDescriptor>;

/** Every read model the `projections` role maintains, in the order it runs them. */
export const allProjectorDescriptors: readonly ProjectorDescriptor[] = Object.values(projectorDescriptors);
