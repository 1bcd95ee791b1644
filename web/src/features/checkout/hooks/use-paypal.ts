import { useEffect, useState } from 'react';
import { type LoadedPaypal, loadPaypal } from '../api/paypal-sdk';

export type PaypalState =
  | { status: 'loading' }
  | { status: 'ready'; loaded: LoadedPaypal }
  | { status: 'failed'; message: string };

/** The shared SDK load, as component state. */
export function usePaypal(): PaypalState {
  const [state, setState] = useState<PaypalState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    loadPaypal().then(
      (loaded) => current && setState({ status: 'ready', loaded }),
      (error: Error) => current && setState({ status: 'failed', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}
