import type { z } from 'zod';

const parsedData = new WeakMap<object, { schema: z.ZodType; parsed: unknown }>();

/**
 * `schema.parse(data)`, done once per data object and schema: the reads of the whole log check every event's data
 * against its type's schema (one that fails is handed out as unreadable), and the parsers of the projectors, the
 * reactor and the audit then get that same result instead of validating the same object again. A parse is pure and
 * recorded event data is never changed, so the remembered result is the one a new parse would give; it is shared by
 * everyone who asks, so it must be treated as read-only.
 */
export function parseEventData<Schema extends z.ZodType>(schema: Schema, data: unknown): z.output<Schema> {
  if (typeof data !== 'object' || data === null) return schema.parse(data);
  const known = parsedData.get(data);
  if (known?.schema === schema) return known.parsed as z.output<Schema>;
  const parsed = schema.parse(data);
  parsedData.set(data, { schema, parsed });
  return parsed;
}
