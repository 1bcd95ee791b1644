import type pg from 'pg';

/**
 * The Postgres event store: one append-only table in its own schema, and an append function that checks the
 * expected revision and inserts in a single round trip, so append transactions stay as short as possible
 * (every open writing transaction holds readers of the global log back). It does not NOTIFY: Postgres
 * serialises the commits of notifying transactions, WAL flush included, which cost ~2.7x in append throughput;
 * the store notifies after commit instead (postgres.ts).
 */
const DDL = /* sql */ `
CREATE SCHEMA IF NOT EXISTS event_store;

CREATE TABLE IF NOT EXISTS event_store.events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text        NOT NULL,
  stream_revision bigint      NOT NULL,
  event_id        uuid        NOT NULL UNIQUE,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_revision)
);

-- Readers of $all walk the log in (transaction, position) order; see readAll.
CREATE INDEX IF NOT EXISTS events_transaction_position ON event_store.events (transaction_id, global_position);

CREATE OR REPLACE FUNCTION event_store.append_events(
  p_stream   text,
  p_expected text,
  p_ids      uuid[],
  p_types    text[],
  p_data     jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_current bigint;
BEGIN
  -- Serialise appends to one stream so 'any' gets gap-free revisions; the unique key is the backstop.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 0));

  -- A retried append whose events are already stored returns the first result (ESDB semantics: not for 'any').
  IF p_expected <> 'any' THEN
    RETURN QUERY
      SELECT e.stream_revision, e.transaction_id, e.global_position
        FROM event_store.events e
       WHERE e.stream_id = p_stream AND e.event_id = p_ids[array_length(p_ids, 1)]
         AND EXISTS (SELECT 1 FROM event_store.events f WHERE f.stream_id = p_stream AND f.event_id = p_ids[1]);
    IF FOUND THEN RETURN; END IF;
  END IF;

  SELECT max(e.stream_revision) INTO v_current FROM event_store.events e WHERE e.stream_id = p_stream;

  IF (p_expected = 'no_stream' AND v_current IS NOT NULL)
     OR (p_expected = 'stream_exists' AND v_current IS NULL)
     OR (p_expected ~ '^[0-9]+$' AND v_current IS DISTINCT FROM p_expected::bigint) THEN
    RAISE EXCEPTION USING ERRCODE = 'ES409', MESSAGE = coalesce(v_current::text, 'no_stream');
  END IF;

  RETURN QUERY
    WITH inserted AS (
      INSERT INTO event_store.events (stream_id, stream_revision, event_id, event_type, data, metadata)
      SELECT p_stream, coalesce(v_current, -1) + i.ord, i.id, i.type, i.data, i.metadata
        FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i(id, type, data, metadata, ord)
      RETURNING event_store.events.stream_revision, event_store.events.transaction_id, event_store.events.global_position
    )
    SELECT * FROM inserted ORDER BY 1 DESC LIMIT 1;
END
$$;

-- Many appends in one call, one after the other through append_events: stream i takes the next p_counts[i] events.
-- Returns the last append's result.
CREATE OR REPLACE FUNCTION event_store.append_many(
  p_streams  text[],
  p_expected text[],
  p_counts   int[],
  p_ids      uuid[],
  p_types    text[],
  p_data     jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_revision bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_first int := 1;
  v_last  int;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
    v_last := v_first + p_counts[i] - 1;
    SELECT a.next_revision, a.transaction_id, a.global_position
      INTO next_revision, transaction_id, global_position
      FROM event_store.append_events(p_streams[i], p_expected[i], p_ids[v_first:v_last],
             p_types[v_first:v_last], p_data[v_first:v_last], p_metadata[v_first:v_last]) a;
    v_first := v_last + 1;
  END LOOP;
  RETURN NEXT;
END
$$;
`;

/** Creates the schema if missing. Safe to run from several processes at once. */
export async function migrateEventStore(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', ['event_store:migrate']);
    await client.query(DDL);
  } finally {
    await client
      .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', ['event_store:migrate'])
      .catch(() => {});
    client.release();
  }
}
