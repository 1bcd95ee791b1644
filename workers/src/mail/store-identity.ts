import { escapeHtml } from './html.js';

/** Who a customer email comes from: the store's name, its logo, and where customers write with questions. */
export interface StoreIdentity {
  name: string;
  /** The store's origin, without a trailing slash: the logo is served from it. */
  publicUrl: string;
  /** Where customers write about an order; null when the deployment names none. */
  supportEmail: string | null;
}

const DEFAULT_STORE_NAME = 'LicenseStore';

/** The display name of a From header (`LicenseStore <no-reply@…>` gives `LicenseStore`), or the default. */
export function storeNameFrom(from: string): string {
  const name = /^\s*"?([^"<]*?)"?\s*</.exec(from)?.[1]?.trim();
  return name || DEFAULT_STORE_NAME;
}

/**
 * The store's mark (its initial on the storefront's blue, as the site's logo shows its key on it) beside its name at
 * the top of an email. Drawn in HTML rather than loaded: mail programs block remote images and most drop SVG.
 */
export const storeHeaderHtml = (store: StoreIdentity) => `
    <tr><td style="padding:0 0 16px;border-bottom:2px solid #2563eb">
      <a href="${escapeHtml(store.publicUrl)}" style="color:#111827;text-decoration:none;font-size:20px;font-weight:bold;white-space:nowrap">
        <span aria-hidden="true" style="display:inline-block;width:28px;height:28px;margin-right:8px;border-radius:6px;background:#2563eb;color:#ffffff;text-align:center;line-height:28px;font-size:16px;vertical-align:middle">${escapeHtml(store.name.charAt(0).toUpperCase())}</span>${escapeHtml(store.name)}</a>
    </td></tr>`;

/** The support line of an email, quoting the order's number. */
export function supportText(store: StoreIdentity, number: string): string {
  return store.supportEmail
    ? `Questions about this order? Write to ${store.supportEmail} and quote order ${number}.`
    : `Questions about this order? Contact ${store.name} at ${store.publicUrl} and quote order ${number}.`;
}

/** How a customer email ends: where to write, then the store's name. */
export const signOffText = (store: StoreIdentity, number: string) => [
  supportText(store, number),
  '',
  store.name,
  '',
];

export function supportHtml(store: StoreIdentity, number: string): string {
  const contact = store.supportEmail
    ? `Write to <a href="mailto:${escapeHtml(store.supportEmail)}">${escapeHtml(store.supportEmail)}</a>`
    : `Contact ${escapeHtml(store.name)} at <a href="${escapeHtml(store.publicUrl)}">${escapeHtml(store.publicUrl)}</a>`;
  return `<p style="color:#6b7280">Questions about this order? ${contact} and quote order ${escapeHtml(number)}.</p>`;
}
