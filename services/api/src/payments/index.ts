export {
  createPaypalClient,
  PAYPAL_HOSTS,
  PayPalError,
  type PaypalClient,
  type PaypalClientOptions,
} from './client.js';
export * from './types.js';
