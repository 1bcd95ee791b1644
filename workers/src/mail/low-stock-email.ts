import type { RenderedEmail } from './delivery-email.js';
import { escapeHtml } from './html.js';

export interface LowStockInput {
  productName: string;
  available: number;
  threshold: number;
  /** The admin page where keys are added. */
  licenseKeysUrl: string;
}

/** The alert an admin gets when a product's available keys fall below the threshold. */
export function renderLowStockEmail(input: LowStockInput): RenderedEmail {
  const left = `${input.available} license ${input.available === 1 ? 'key' : 'keys'} left`;
  const summary = `${input.productName} has ${left} (threshold ${input.threshold}). Paid orders wait for keys when none are left.`;
  return {
    // A header is one line, whatever an admin typed into the product name.
    subject: `Low stock: ${input.productName.replace(/\s+/g, ' ')} has ${left}`,
    text: `${summary}\n\nAdd license keys: ${input.licenseKeysUrl}\n`,
    html: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Low stock</title></head>
<body style="font-family:Arial,Helvetica,sans-serif">
  <p>${escapeHtml(summary)}</p>
  <p><a href="${escapeHtml(input.licenseKeysUrl)}">Add license keys</a></p>
</body>
</html>
`,
  };
}
