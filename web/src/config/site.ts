/** The product's name: the site name in metadata and the suffix of every page title. */
export const SITE_NAME = 'LicenseStore';

/** Where the storefront sends shoppers who need help (footer, Contact Support). */
export const SUPPORT_EMAIL = 'support@licensestore.local';

export const pageTitle = (title?: string) => (title ? `${title} | ${SITE_NAME}` : SITE_NAME);
