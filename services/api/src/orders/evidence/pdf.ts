import PDFDocument from 'pdfkit';
import type { EvidenceFacts } from './facts.js';

/** How the pack proves itself, for the statement at the end of the PDF. */
export interface PackSeal {
  exportedAt: string;
  eventCount: number;
  keyId: string;
  finalHash: string;
  /** Who downloaded the pack, as the back office names them. */
  producedFor: string;
}

/** Where keys were shown in clear, and to whom, for each door they can be shown through. */
const SHOWN: Record<string, (viewer: string) => string> = {
  'confirmation-page': () => 'on the order confirmation page to the browser that paid',
  'email-link': () => "through the delivery email's link",
  'my-orders': (viewer) => `on My Orders to ${viewer}, signed in with the order's address`,
  'admin-reveal': (viewer) => `in the back office to ${viewer}`,
};

/** Who was shown the keys: an admin by username (`withAdminNames`), a customer by the address they signed in with. */
const viewerText = ({ type, id }: { type: string; id: string | null }) =>
  type === 'order-link'
    ? 'the browser holding the order’s link'
    : type === 'admin'
      ? (id ?? 'an admin')
      : `the customer${id ? ` ${id}` : ''}`;

const when = (iso: string) =>
  iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');

/**
 * The pack's human-readable side: the order, its payment, what was delivered and when the mail server accepted it,
 * every time its keys were shown in clear, refunds, and how to verify the signed events beside it. Standard
 * fonts only, so the PDF is small and any reader (and text extraction) handles it.
 */
export function evidencePdf(facts: EvidenceFacts, seal: PackSeal): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Evidence pack, order ${facts.orderNumber}`,
      Author: 'LicenseStore',
      Subject: facts.orderId,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const heading = (text: string) =>
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(text).moveDown(0.3);
  const line = (label: string, value: string) =>
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value);
  const item = (text: string) => doc.font('Helvetica').fontSize(10).text(`- ${text}`, { indent: 10 });
  const none = (text: string) => doc.font('Helvetica-Oblique').fontSize(10).text(text);

  doc.font('Helvetica-Bold').fontSize(18).text(`Evidence pack: order ${facts.orderNumber}`);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`Produced ${when(seal.exportedAt)} for ${seal.producedFor}`);

  heading('Order');
  line('Order number', `${facts.orderNumber} (id ${facts.orderId})`);
  line('Order date', when(facts.placedAt));
  line('Customer', `${facts.customer.name} <${facts.customer.email}>`);

  heading('Payment (PayPal)');
  line('PayPal order id', facts.paypalOrderId);
  line('Capture id', facts.captureId);
  line('Amount', `${facts.amount} ${facts.currency}`);
  line('Capture status', facts.captureStatus);
  for (const step of facts.payment) item(`${when(step.at)}: ${step.what}`);

  heading('Items');
  for (const each of facts.lines) {
    item(`${each.productName}: ${each.quantity} x ${each.unitPrice} = ${each.lineTotal} ${facts.currency}`);
    for (const key of each.keys) doc.font('Courier').fontSize(9).text(`license key ${key}`, { indent: 30 });
  }

  heading('Delivery');
  if (facts.deliveries.length === 0) none('No delivery email was recorded.');
  for (const delivery of facts.deliveries) {
    item(
      `Delivery email to ${delivery.recipient} accepted by the mail server at ${when(delivery.sentAt)} (message id ${delivery.messageId})`,
    );
  }

  heading('License keys shown in clear');
  if (facts.reveals.length === 0)
    none('The keys were never shown in clear on the site or in the back office.');
  for (const reveal of facts.reveals) {
    item(
      `${when(reveal.revealedAt)}: ${reveal.keys.join(', ')} shown ${SHOWN[reveal.channel]?.(viewerText(reveal.viewer)) ?? `to ${viewerText(reveal.viewer)}`}; client address hash ${reveal.clientHash.slice(0, 16)}`,
    );
  }

  heading('Refunds');
  if (facts.refunds.length === 0) none('No refund was requested or made.');
  for (const refund of facts.refunds) item(`${when(refund.at)}: ${refund.what}`);

  if (facts.statusChanges.length > 0) {
    heading('Status changed by hand (an admin)');
    for (const change of facts.statusChanges)
      item(`${when(change.at)}: ${change.from} to ${change.to} by ${change.by}`);
  }

  heading('What this pack is and how to verify it');
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(
      `This pack is the store's own record of order ${facts.orderNumber}. This PDF summarises it. ` +
        `events.ndjson holds all ${seal.eventCount} events the store recorded about the order, in the order they were recorded, ` +
        'one JSON object per line; each line carries the SHA-256 of the line before it, so no line can be changed, removed, ' +
        'added or moved without breaking the chain. events.ndjson.manifest.json states the number of lines and the hash of ' +
        `the last one (${seal.finalHash}) and is signed with the store's Ed25519 audit key ${seal.keyId}.`,
    )
    .moveDown(0.5)
    .text(
      "To verify, with the store's public audit key: npm run audit:check-export -- <this pack>.zip --public-key audit-verify.pem " +
        '(or the extracted events.ndjson beside its manifest). It answers OK, or names the first line that was altered. ' +
        'Any tool that implements RFC 8785 (canonical JSON), SHA-256 and Ed25519 can repeat the check.',
    )
    .moveDown(0.5)
    .text(
      'License keys are masked here (their last characters only) and appear in the events only as digests of their ' +
        'encrypted form; client addresses are salted hashes, which match between records without revealing the address.',
    );

  doc.end();
  return done;
}
