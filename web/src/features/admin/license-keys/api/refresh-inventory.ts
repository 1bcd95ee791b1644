import type { QueryClient } from '@tanstack/react-query';
import { KEY_LIST_PATH, LICENSE_KEYS_KEY } from './get-license-keys';

/**
 * After a change to the inventory: its list (every page and filter) and stock, the dashboard's key counters, and
 * the orders (added keys go straight to paid orders waiting for them).
 */
export const refreshInventory = (queryClient: QueryClient) =>
  Promise.all(
    [[KEY_LIST_PATH], LICENSE_KEYS_KEY, ['/api/admin/dashboard'], ['/api/orders']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
