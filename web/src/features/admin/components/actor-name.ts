import type { AuditEventView } from '@licensestore/domain/audit';
/** Who recorded an event, as the server answers it: an admin's username comes as `name` while the admin exists. */
export type EventActor = AuditEventView['actor'];

/** The store's own processes, by the id they record under. */
const SYSTEM_ACTORS: Record<string, string> = {
  workers: "the store's workers",
  'paypal-webhook': "PayPal's webhook",
  paypal: 'PayPal',
  seed: 'the demo data',
};

/** Who acted, for a sentence ("By owner", "By the customer"): a username, never an id. */
export function actorName({ type, id, name }: EventActor): string {
  if (type === 'admin') return name ?? 'a back-office user since removed';
  if (type === 'customer') return 'the customer';
  return SYSTEM_ACTORS[id] ?? 'the store';
}

/** Who acted, standing alone (a table's cell): the sentence form, capitalised unless it is a username. */
export function actorLabel(actor: EventActor): string {
  const name = actorName(actor);
  return actor.type === 'admin' && actor.name ? name : name.charAt(0).toUpperCase() + name.slice(1);
}
