import type { PayPalNamespace } from '@paypal/paypal-js';
import { useEffect, useRef, useState } from 'react';
import type { PaymentHandlers } from '../hooks/use-payment-flow';

/** PayPal's button (and, from the emulator, its "Sandbox buyer" choice): rendered into a box of fixed height. */
export function PaypalButtons({ paypal, handlers }: { paypal: PayPalNamespace; handlers: PaymentHandlers }) {
  const container = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const target = container.current;
    if (!target || !paypal.Buttons) {
      setFailed(true);
      return;
    }
    const buttons = paypal.Buttons({
      style: { layout: 'vertical', color: 'gold', shape: 'rect', label: 'paypal', height: 45 },
      onClick: (_data, actions) => (handlers.mayStart() ? actions.resolve() : actions.reject()),
      createOrder: () => handlers.createOrder(),
      onApprove: (data, actions) => handlers.approve(data.orderID, actions.restart),
      onCancel: () => handlers.cancel(),
      onError: (error) => handlers.fail(error),
    });
    let current = true;
    buttons.render(target).then(
      () => current && setRendered(true),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
      buttons.close().catch(() => {});
    };
  }, [paypal, handlers]);

  return (
    <div className="relative min-h-20">
      <div ref={container} />
      {!rendered && !failed && (
        <p
          role="status"
          className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground"
        >
          Loading payment options...
        </p>
      )}
      {failed && (
        <p role="alert" className="text-sm text-destructive">
          The PayPal button could not be shown. Please reload the page.
        </p>
      )}
    </div>
  );
}
