import { ForbiddenError, NotFoundError, orderNumber } from '@licensestore/domain';
import type { EventStore } from '@licensestore/domain/events';
import type { SellerDetails } from '@licensestore/platform/config';
import type { OrderAccess } from '@licensestore/platform/order-access';
import { type Request, Router } from 'express';
import { isUuid } from '../http/ids.js';
import { keyAccess } from '../orders/access.js';
import { findReceipt } from './receipt.js';
import { renderReceiptPdf } from './receipt-pdf.js';

export interface ReceiptRoutesDeps {
  eventStore: EventStore;
  orderAccess: OrderAccess;
  seller: SellerDetails;
}

/**
 * Whoever may see the order's keys may download its receipt (admins, auditors, the customer signed in with its
 * address, a browser holding its access cookie), and so may the holder of the delivery e-mail's receipt link: its
 * `token` (purpose `receipt`) opens this order's receipt PDF, which holds no license key, and nothing else.
 */
const mayReadReceipt = (req: Request, order: { id: string; customerEmail: string }, access: OrderAccess) =>
  keyAccess(req, order, access).keys !== 'none' || access.verify('receipt', order.id, req.query.token);

/** GET /orders/:id/receipt.pdf: the order's receipt, once it is paid and numbered. */
export function receiptRoutes({ eventStore, orderAccess, seller }: ReceiptRoutesDeps): Router {
  const router = Router();

  router.get('/orders/:id/receipt.pdf', async (req, res) => {
    const id = req.params.id;
    if (!isUuid(id)) throw new NotFoundError('Order not found');
    const found = await findReceipt(eventStore, id.toLowerCase());
    if (found.status === 'unknown order') throw new NotFoundError('Order not found');
    const order =
      found.status === 'issued'
        ? { id: found.receipt.orderId, customerEmail: found.receipt.customer.email }
        : found.order;
    if (!mayReadReceipt(req, order, orderAccess)) {
      throw new ForbiddenError(
        "This receipt opens from the order's page in the browser that paid, from the link in the delivery e-mail, " +
          "or after signing in with the order's e-mail address",
      );
    }
    if (found.status === 'not issued') {
      throw new NotFoundError(
        found.order.paid
          ? `The receipt of order ${orderNumber(order.id)} is being issued; try again in a moment`
          : `Order ${orderNumber(order.id)} has no receipt yet: it is issued once the payment completes`,
      );
    }
    const pdf = await renderReceiptPdf(found.receipt, seller);
    res
      .set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="receipt-${found.receipt.receiptNumber}.pdf"`,
        'Cache-Control': 'no-store',
      })
      .send(pdf);
  });

  return router;
}
