// Customers' reviews the home page shows (GET /api/testimonials).

export interface TestimonialView {
  id: string;
  customerName: string;
  /** 1 to 5. */
  rating: number;
  comment: string;
  location: string;
  /** Calendar date, ISO `YYYY-MM-DD`. */
  date: string;
}
