import { escapeHtml } from './html.js';
import { type OrderLinks, orderPageLink } from './links.js';
import { type StoreIdentity, storeHeaderHtml, supportHtml } from './store-identity.js';

/**
 * A customer e-mail about one order as HTML: the store's header, `body` (markup, its text escaped by the caller),
 * then the link to the order's page and where to ask for help.
 */
export function orderEmailHtml(
  { title, store, number, links }: { title: string; store: StoreIdentity; number: string; links: OrderLinks },
  body: string,
): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#111827">
  <table role="presentation" style="max-width:600px;margin:0 auto;width:100%">${storeHeaderHtml(store)}
    <tr><td>
      ${body}
      <p><a href="${escapeHtml(orderPageLink(links))}">View your order ${escapeHtml(number)}</a></p>
      ${supportHtml(store, number)}
    </td></tr>
  </table>
</body>
</html>
`;
}
