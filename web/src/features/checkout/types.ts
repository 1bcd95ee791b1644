/** One cart line as checkout shows and sells it; the line total follows the cart's own rounding. */
export interface CheckoutLine {
  productId: string;
  productName: string;
  imageUrl: string;
  /** Unit price in dollars, as the cart keeps it. */
  price: number;
  quantity: number;
  lineTotalCents: number;
}

export interface CheckoutCart {
  lines: CheckoutLine[];
  subtotalCents: number;
}

/** The checkout's customer form: who pays and where the keys go. */
export interface Customer {
  customerName: string;
  customerEmail: string;
}
