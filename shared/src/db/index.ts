import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

// numeric and int8 come back as strings (exact); prices stay decimal strings end to end.

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  image_url: string;
  category: string;
  platform: string;
  regular_price: string;
  sale_price: string | null;
  featured: boolean;
  in_stock: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface TestimonialsTable {
  id: string;
  customer_name: string;
  rating: number;
  comment: string;
  location: string;
  date: string;
}

export interface ProjectionCheckpointsTable {
  name: string;
  /** Last applied event-store position; null before the first event. */
  position: string | null;
  /** The projector version that built the tables; a different code version rebuilds them. */
  version: number;
  updated_at: Date;
}

export interface AdminUsersTable {
  id: string;
  username: string;
  password_hash: string;
  created_at: Date;
}

export interface Database {
  products: ProductsTable;
  testimonials: TestimonialsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  admin_users: AdminUsersTable;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  close: () => Promise<void>;
}

/** One pool per process role; kysely for queries, the raw pool for LISTEN/NOTIFY and bulk SQL. */
export function openDatabase(url: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely ends the pool only once it has used it; end it here when it never did.
  const close = async () => {
    await db.destroy();
    if (!pool.ended) await pool.end();
  };
  return { db, pool, close };
}
