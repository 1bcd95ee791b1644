import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api';

/** Where the page stands with the delivery e-mail's link: none in the URL, being handed over, done, or refused. */
export type OrderLinkState = 'none' | 'opening' | 'opened' | 'refused';

const ACCESS_PARAMETER = 'access';

/** The token of the delivery e-mail's link (`#access=<token>`), if the page was opened through one. */
const linkToken = () => new URLSearchParams(window.location.hash.slice(1)).get(ACCESS_PARAMETER);

/**
 * The delivery e-mail links to this page with a token in the fragment (never sent to a server, never logged): the
 * page trades it for the order's access cookie (POST /api/orders/:orderId/access), then drops it from the address
 * bar and the history, so it is neither bookmarked nor shared by accident. The order loads once this is settled.
 */
export function useOrderLink(orderId: string): OrderLinkState {
  const [state, setState] = useState<OrderLinkState>(() => (linkToken() ? 'opening' : 'none'));
  useEffect(() => {
    const token = linkToken();
    if (!token) return;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    // No cancelling on cleanup: the token is gone from the URL, so this is the only hand-over there will be.
    apiRequest('POST', `/api/orders/${encodeURIComponent(orderId)}/access`, { token }).then(
      () => setState('opened'),
      () => setState('refused'),
    );
  }, [orderId]);
  return state;
}
