import {
  orderRefundViewSchema,
  type RefundRequest,
  refundableUnitViewSchema,
} from '@licensestore/contract/refunds';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, getJson, isStale } from '@/lib/api';
import { toast } from '@/lib/toast';
import { ORDERS_KEY } from './get-orders';
import { refuseStaleOrderWrite } from './stale-order';

const refundableUnitsSchema = z.array(refundableUnitViewSchema);

/** The units the refund dialog offers (admins only), their prices checked against the contract. */
export const refundableUnitsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, orderId, 'refundable-units'],
    queryFn: async () =>
      refundableUnitsSchema.parse(
        await getJson<unknown>(`/api/orders/${encodeURIComponent(orderId)}/refundable-units`, {
          on401: 'throw',
        }),
      ),
  });

export const useRefundableUnits = (orderId: string, enabled: boolean) =>
  useQuery({ ...refundableUnitsQueryOptions(orderId), enabled });

/**
 * Asks PayPal for the refund; the order, its lines, keys and timeline are read again whatever the answer. `etag`
 * names the order as the page shows it: a refund chosen on an order refunded or changed since is refused before
 * PayPal is asked.
 */
export function useRefundOrder(orderId: string, etag: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: RefundRequest) => {
      const response = await apiRequest(
        'POST',
        `/api/orders/${encodeURIComponent(orderId)}/refunds`,
        request,
        { ifMatch: etag },
      );
      return {
        accepted: response.status === 202,
        refund: orderRefundViewSchema.parse(await response.json()),
      };
    },
    onSuccess: ({ accepted, refund }) => {
      toast({
        title: accepted ? 'Refund requested' : 'Refund completed',
        description: accepted
          ? `PayPal is processing the refund of ${refund.amount} USD.`
          : `${refund.amount} USD was refunded through PayPal.`,
      });
    },
    onError: async (error) => {
      if (isStale(error)) {
        await refuseStaleOrderWrite(queryClient, 'Not refunded', 'Refund again if you still want to.');
        return;
      }
      toast({ title: 'Refund failed', description: error.message, variant: 'destructive' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...ORDERS_KEY, orderId] }),
  });
}
