import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The back office's read models as its query keys name them: each key starts with the path it GETs, and a screen's
 * list, one of its rows and that row's parts share the path's prefix ('/api/orders', '/api/orders/<id>/items').
 */
const ORDERS = ['/api/orders', '/api/admin/orders'];
/** The review queue: held orders are rows of the orders read model. */
const REVIEWS = '/api/admin/reviews';
const CUSTOMERS = ['/api/customers', '/api/admin/customers'];
const LICENSE_KEYS = ['/api/license-keys', '/api/admin/license-keys'];
const DASHBOARD = '/api/admin/dashboard';
const AUDIT_EVENTS = '/api/audit/events';
const PRODUCTS = '/api/products';
const STOCK_MISMATCHES = '/api/admin/stock-mismatches';

/** Every prefix above: these answers go stale in time, besides being refreshed when their read model moves. */
export const BACK_OFFICE_READ_MODELS = [
  ...ORDERS,
  REVIEWS,
  ...CUSTOMERS,
  ...LICENSE_KEYS,
  DASHBOARD,
  AUDIT_EVENTS,
  STOCK_MISMATCHES,
];

type KeyMatch = (key: QueryKey) => boolean;

/** A key whose path is `prefix` or below it ('/api/orders', '/api/orders/<id>', '/api/orders?status=paid'). */
const under =
  (prefix: string): KeyMatch =>
  ([path]) =>
    typeof path === 'string' &&
    (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`));

/** A key below `prefix` naming one row's `part` ([prefix, id, part]), e.g. an order's timeline. */
const partOf =
  (prefix: string, part: string): KeyMatch =>
  (key) =>
    under(prefix)(key) && key[2] === part;

/**
 * What each projector's read model feeds, by the names the projection runner gives its projectors. Orders feed
 * the customers' order counts and the dashboard's recent orders; keys its low stock; keys and products alike the
 * stock shown wrongly; the audit log each order's timeline and the event log.
 */
const FED_BY: Record<string, KeyMatch[]> = {
  orders: [...ORDERS, REVIEWS, ...CUSTOMERS, DASHBOARD].map(under),
  customers: CUSTOMERS.map(under),
  dashboard: [under(DASHBOARD)],
  'license-keys': [...LICENSE_KEYS, DASHBOARD, STOCK_MISMATCHES].map(under),
  'key-history': [partOf('/api/license-keys', 'history')],
  'audit-log': [partOf('/api/orders', 'timeline'), under(AUDIT_EVENTS)],
  products: [PRODUCTS, STOCK_MISMATCHES].map(under),
};

const EVERY_MATCH = Object.values(FED_BY).flat();

function invalidateMatching(queryClient: QueryClient, matches: KeyMatch[]): Promise<void> {
  if (matches.length === 0) return Promise.resolve();
  // A read under way may have been answered before the move: it starts again (TanStack's default).
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) => matches.some((match) => match(queryKey)),
  });
}

/** Reads again what the moved projectors feed: the screens on show at once, the rest when next shown. */
export const invalidateMoved = (queryClient: QueryClient, projectors: string[]) =>
  invalidateMatching(
    queryClient,
    projectors.flatMap((projector) => FED_BY[projector] ?? []),
  );

/** Reads again everything the back office shows: what moved while no stream listened is unknown. */
export const invalidateEveryReadModel = (queryClient: QueryClient) =>
  invalidateMatching(queryClient, EVERY_MATCH);
