/** How an order is named to people (storefront, back office, e-mails): '#' and the id's first 8 characters, upper case. */
export const orderNumber = (orderId: string) => `#${orderId.slice(0, 8).toUpperCase()}`;
