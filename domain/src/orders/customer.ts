import { z } from 'zod';
import { makeStorable, storableText } from '../text/index.js';
import type { Customer } from './events.js';

const NAME = { min: 2, max: 200 };
const EMAIL_MAX = 254;

/** The buyer's name as the checkout form sends it; the messages are the shopper's own words (no field prefix). */
export const customerNameSchema = storableText({ ...NAME, label: 'Name' });
export const customerEmailSchema = storableText({ min: 0, max: EMAIL_MAX, label: 'Email' }).pipe(
  z.email('Please enter a valid email address'),
);
/** A buyer a capture will store: checked before PayPal is asked to move any money. */
export const buyerSchema = z.object({ name: customerNameSchema, email: customerEmailSchema });

/** What a capture stores when PayPal's payer record names the buyer and has no usable name or address. */
export const UNNAMED_PAYER: Customer = { name: 'PayPal customer', email: 'unknown@paypal.invalid' };

/**
 * The buyer as PayPal's payer record names them (an order the browser never finished). The money has moved by then,
 * so nothing is refused: the name is made storable, and what is still unusable falls back to UNNAMED_PAYER's.
 */
export function payerAsBuyer(payer: { name?: string; email?: string }): Customer {
  const name = makeStorable(payer.name ?? '', { max: NAME.max });
  const email = makeStorable(payer.email ?? '', { max: EMAIL_MAX });
  return {
    name: name.length >= NAME.min ? name : UNNAMED_PAYER.name,
    email: z.email().safeParse(email).success ? email : UNNAMED_PAYER.email,
  };
}
