import type { TestimonialView } from '@licensestore/contract/testimonials';
import type { Database } from '@licensestore/platform/db';
import { Router } from 'express';
import type { Kysely } from 'kysely';

export async function listTestimonials(db: Kysely<Database>): Promise<TestimonialView[]> {
  const rows = await db
    .selectFrom('testimonials')
    .select(['id', 'customer_name', 'rating', 'comment', 'location', 'date'])
    .orderBy('date', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    customerName: row.customer_name,
    rating: row.rating,
    comment: row.comment,
    location: row.location,
    date: row.date,
  }));
}

export function testimonialRoutes(db: Kysely<Database>): Router {
  const router = Router();
  router.get('/testimonials', async (_req, res) => {
    res.json(await listTestimonials(db));
  });
  return router;
}
