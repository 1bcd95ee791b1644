/**
 * A checkout through the API and the store's PayPal emulator, as the checkout page makes it: the order's id.
 * `headers` go with each request (e.g. an X-Correlation-Id that the whole purchase shares).
 */
export async function purchase(
  url: string,
  productId: string,
  customer = { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' },
  headers: Record<string, string> = {},
): Promise<{ orderId: string; paypalOrderId: string }> {
  const post = async (path: string, body: unknown, status: number) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== status) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: string };
  };
  const { id: paypalOrderId } = await post(
    '/paypal/order',
    { amount: '100.00', currency: 'USD', intent: 'CAPTURE', items: [{ productId, quantity: 1 }] },
    201,
  );
  await post(`/paypal-sandbox/buyer/orders/${paypalOrderId}/approve`, { choice: 'approve' }, 200);
  const order = await post(`/paypal/order/${paypalOrderId}/capture`, customer, 200);
  return { orderId: order.id, paypalOrderId };
}
