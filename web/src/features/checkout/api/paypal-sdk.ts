import type { PaymentsConfigView } from '@licensestore/contract/checkout';
import { loadScript, type PayPalNamespace } from '@paypal/paypal-js';
import { getJson } from '@/lib/api';

export interface LoadedPaypal {
  paypal: PayPalNamespace;
  config: PaymentsConfigView;
}

export const SDK_LOAD_FAILED = 'Failed to load PayPal SDK';

let loading: Promise<LoadedPaypal> | null = null;

/**
 * The PayPal SDK, loaded once per page life whatever mounts the widget; a failed load is forgotten so that the
 * next visit to checkout tries again.
 */
export function loadPaypal(): Promise<LoadedPaypal> {
  loading ??= (async () => {
    const config = await getJson<PaymentsConfigView>('/api/payments/config', { on401: 'throw' });
    const paypal = await loadScript({
      clientId: config.clientId,
      currency: config.currency,
      intent: 'capture',
      components: ['buttons', 'card-fields'],
      sdkBaseUrl: config.sdkBaseUrl,
    });
    if (!paypal) throw new Error(SDK_LOAD_FAILED);
    return { paypal, config };
  })().catch((error: unknown) => {
    loading = null;
    throw new Error(SDK_LOAD_FAILED, { cause: error });
  });
  return loading;
}
