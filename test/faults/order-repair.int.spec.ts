// A paid PayPal order whose api failed between recording the capture and placing the order, with no retry from the
// shopper and no webhook from PayPal: the workers place it, and it is delivered like any other.
import { describe, expect, it, vi } from 'vitest';
import { browserPost, buyerChooses, checkoutRequest } from '../../services/api/test/support/purchase.js';
import { startStoreWithMailServer } from '../support/in-process-store.js';
import { deliveriesByMessageId } from '../support/smtp-server.js';
import { checkStoreInvariants } from '../support/store-invariants.js';

/** Refuses every order append at the database, as an api that ends right after the checkout's append never makes it. */
const REFUSE_ORDERS = `
CREATE FUNCTION refuse_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the api ended before placing the order'; END $$;
CREATE TRIGGER refuse_orders BEFORE INSERT ON event_store.events
  FOR EACH ROW WHEN (NEW.event_type = 'OrderCaptured') EXECUTE FUNCTION refuse_orders();
`;
const ACCEPT_ORDERS = `
DROP TRIGGER refuse_orders ON event_store.events;
DROP FUNCTION refuse_orders();
`;

describe('A capture recorded without its order', () => {
  it('becomes an order placed by the workers, with its keys and exactly one delivery e-mail', {
    timeout: 60_000,
  }, async () => {
    const { store, smtp } = await startStoreWithMailServer({ webhooks: false });
    const productId = await store.productWithKeys(1, { regularPrice: '20.00' });
    const post = browserPost(store.api.url);
    const created = await post('/paypal/order', checkoutRequest(productId, '20.00'));
    expect(created.status).toBe(201);
    const { id: paypalOrderId } = (await created.json()) as { id: string };
    await buyerChooses(store.emulator.baseUrl, paypalOrderId);

    await store.database.pool.query(REFUSE_ORDERS);
    try {
      const captured = await post(`/paypal/order/${paypalOrderId}/capture`, {
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
      });
      expect(captured.status).toBe(500);
    } finally {
      await store.database.pool.query(ACCEPT_ORDERS);
    }
    const events = await store.eventStore.readAll(null, 10_000);
    expect(events.filter((event) => event.type === 'CheckoutCaptured')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'OrderCaptured')).toHaveLength(0);

    await vi.waitFor(
      async () => {
        const state = await checkStoreInvariants(
          store.eventStore,
          deliveriesByMessageId(smtp.received),
          store.capturedAtPaypal(),
        );
        expect(state.problems).toEqual([]);
        expect(state.paidOrders).toBe(1);
        expect(state.keysAssigned).toBe(1);
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.recipients).toEqual(['ada@example.com']);
  });
});
