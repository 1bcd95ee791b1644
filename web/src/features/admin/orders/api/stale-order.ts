import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { ORDERS_KEY } from './get-orders';

/**
 * An order write refused because the order changed since the page loaded it (412 to its If-Match): says so, with
 * what to do again, and reads the order again so the page shows what someone else did.
 */
export async function refuseStaleOrderWrite(queryClient: QueryClient, title: string, again: string) {
  toast({
    title,
    description: `This order was changed by someone else since you opened it; it now shows the changes. ${again}`,
    variant: 'destructive',
  });
  await queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
}
