import { auditLogProjector } from './audit-log/projector.js';
import { customersProjector } from './customers/projector.js';
import { dashboardProjector } from './dashboard/projector.js';
import { keyHistoryProjector } from './key-history/projector.js';
import { licenseKeysProjector } from './license-keys/projector.js';
import { ordersProjector } from './orders/projector.js';
import { productsProjector } from './products/projector.js';
import type { Projector } from './projector.js';

/** Every read model the `projections` role maintains, by name. */
export const allProjectors: readonly Projector[] = [
  productsProjector,
  ordersProjector,
  customersProjector,
  dashboardProjector,
  licenseKeysProjector,
  auditLogProjector,
  keyHistoryProjector,
];

export function projectorsNamed(name: string): Projector[] {
  if (name === 'all') return [...allProjectors];
  const projector = allProjectors.find((candidate) => candidate.name === name);
  if (!projector) {
    throw new Error(
      `unknown projector "${name}" (known: ${allProjectors.map((p) => p.name).join(', ')}, all)`,
    );
  }
  return [projector];
}
