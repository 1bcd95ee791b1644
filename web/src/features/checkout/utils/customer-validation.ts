import type { Customer } from '../types';

export type CustomerErrors = Partial<Record<keyof Customer, string>>;

/** Something@something.tld without blanks: the server checks the address properly, this catches typos early. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's messages; an empty object when both fields are valid. */
export function validateCustomer({ customerName, customerEmail }: Customer): CustomerErrors {
  const errors: CustomerErrors = {};
  if (customerName.trim().length < 2) errors.customerName = 'Name must be at least 2 characters';
  if (!EMAIL.test(customerEmail.trim())) errors.customerEmail = 'Please enter a valid email address';
  return errors;
}

/**
 * When the payment widget replaces the notice: exactly when the form has nothing to say, so a field marked
 * invalid never sits beside a payment button (a name of 2 characters and an at-sign are
 * part of that rule).
 */
export const paymentOffered = (customer: Customer): boolean =>
  Object.keys(validateCustomer(customer)).length === 0;
