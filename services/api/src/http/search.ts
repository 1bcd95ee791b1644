import { z } from 'zod';

/** Trigram indexes answer a search only from three characters on; shorter terms would read the whole table. */
export const MIN_SEARCH_LENGTH = 3;

/** A list's free-text `q`: trimmed, three to 200 characters; blank means no search. */
export const searchTermSchema = z
  .string()
  .trim()
  .max(200, { error: 'must be at most 200 characters' })
  .refine((term) => term === '' || term.length >= MIN_SEARCH_LENGTH, {
    error: `must have at least ${MIN_SEARCH_LENGTH} characters`,
  })
  .transform((term) => term || undefined)
  .optional();

/** An ILIKE pattern matching text that contains `term` as it is (its `%`, `_` and `\` are no wildcards). */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;
