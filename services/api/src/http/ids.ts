const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of products, orders and keys are random UUIDs; anything else names nothing (and must not reach Postgres as a uuid). */
export const isUuid = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);
