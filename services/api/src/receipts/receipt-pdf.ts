import { toCents } from '@licensestore/domain';
import { displayCents } from '@licensestore/domain/money/display';
import type { SellerDetails } from '@licensestore/platform/config';
import PDFDocument from 'pdfkit';
import type { Receipt } from './receipt.js';

/** Characters of Windows-1252 beyond Latin-1 that the standard PDF fonts draw. */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text as the built-in Helvetica can draw it (WinAnsi): anything else would come out as other letters, so it shows
 * as '?' instead. The built-in font keeps the PDF small and the same on every machine.
 */
export const drawable = (text: string) =>
  [...text.normalize('NFC')]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char))
        return char;
      return code < 0x20 ? ' ' : '?';
    })
    .join('');

const dateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const date = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
export const receiptDateTime = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;
export const receiptDate = (iso: string) => date.format(new Date(iso));
const money = (amount: string) => displayCents(toCents(amount));

const MARGIN = 56;
const COLUMNS = { product: MARGIN, quantity: 330, unitPrice: 390, lineTotal: 470 } as const;
const RIGHT = 595.28 - MARGIN;
const MUTED = '#555555';

/** The receipt as a one-document PDF (A4): seller, numbers, customer, lines, tax, total, refunds, net paid. */
export function renderReceiptPdf(receipt: Receipt, seller: SellerDetails): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Receipt ${receipt.receiptNumber}`,
      Author: drawable(seller.name),
      Subject: `Order ${receipt.orderNumber}`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (value: string, x?: number, y?: number, options?: PDFKit.Mixins.TextOptions) =>
    doc.text(drawable(value), x, y, options);

  doc.font('Helvetica-Bold').fontSize(22);
  text('Receipt');
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(11);
  text(seller.name);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  for (const line of seller.addressLines) text(line);
  if (seller.email) text(seller.email);
  if (seller.taxId) text(`Tax ID: ${seller.taxId}`);
  doc.fillColor('black').moveDown(1);

  const facts: Array<[string, string]> = [
    ['Receipt number', receipt.receiptNumber],
    ['Order number', `${receipt.orderNumber} (${receipt.orderId})`],
    ['Date paid', receiptDateTime(receipt.paidAt)],
    ['PayPal capture ID', receipt.captureId],
    ['Billed to', `${receipt.customer.name} <${receipt.customer.email}>`],
  ];
  doc.fontSize(10);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('Helvetica-Bold');
    text(label, MARGIN, y, { width: 120 });
    doc.font('Helvetica');
    text(value, MARGIN + 125, y, { width: RIGHT - MARGIN - 125 });
    doc.moveDown(0.2);
  }
  doc.moveDown(1);

  const row = (cells: { product: string; quantity: string; unitPrice: string; lineTotal: string }) => {
    const y = doc.y;
    text(cells.product, COLUMNS.product, y, { width: COLUMNS.quantity - COLUMNS.product - 10 });
    const bottom = doc.y;
    text(cells.quantity, COLUMNS.quantity, y, { width: 50, align: 'right' });
    text(cells.unitPrice, COLUMNS.unitPrice, y, { width: 70, align: 'right' });
    text(cells.lineTotal, COLUMNS.lineTotal, y, { width: RIGHT - COLUMNS.lineTotal, align: 'right' });
    doc.y = Math.max(bottom, doc.y) + 4;
  };
  const rule = () => {
    doc.moveTo(MARGIN, doc.y).lineTo(RIGHT, doc.y).strokeColor('#cccccc').stroke();
    doc.y += 6;
  };
  doc.font('Helvetica-Bold');
  row({ product: 'Product', quantity: 'Quantity', unitPrice: 'Unit price', lineTotal: 'Line total' });
  rule();
  doc.font('Helvetica');
  for (const line of receipt.lines) {
    row({
      product: line.productName,
      quantity: String(line.quantity),
      unitPrice: money(line.unitPrice),
      lineTotal: money(line.lineTotal),
    });
  }
  rule();

  const sum = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    text(label, COLUMNS.quantity - 80, y, {
      width: COLUMNS.lineTotal - COLUMNS.quantity + 70,
      align: 'right',
    });
    text(amount, COLUMNS.lineTotal, y, { width: RIGHT - COLUMNS.lineTotal, align: 'right' });
    doc.moveDown(0.3);
  };
  sum('Tax', money(receipt.tax));
  sum(`Total (${receipt.currency})`, money(receipt.total), true);
  for (const refund of receipt.refunds)
    sum(`Refund, ${receiptDate(refund.refundedAt)}`, `-${money(refund.amount)}`);
  sum(`Net paid (${receipt.currency})`, money(receipt.netPaid), true);

  doc.moveDown(2).font('Helvetica').fontSize(9).fillColor(MUTED);
  text('Paid with PayPal. Thank you for your purchase.', MARGIN, doc.y, { width: RIGHT - MARGIN });
  doc.end();
  return finished;
}
