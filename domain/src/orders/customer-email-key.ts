/**
 * How orders of one customer are grouped and found (the orders read model's indexed `customer_email_key`):
 * addresses differing only in case or surrounding blanks are one customer.
 */
export const customerEmailKey = (email: string) => email.trim().toLowerCase();
