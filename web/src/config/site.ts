/** The product's name: the site name in metadata and the suffix of every page title. */
export const SITE_NAME = 'LicenseStore';

export const pageTitle = (title?: string) => (title ? `${title} | ${SITE_NAME}` : SITE_NAME);
