import { storableText } from '@licensestore/shared/text';
import { z } from 'zod';

/** Trigram indexes answer a search only from three characters on; shorter terms would read the whole table. */
export const MIN_SEARCH_LENGTH = 3;

/** A list's free-text `q`: trimmed, three to 200 characters Postgres can hold; blank means no search. */
export const searchTermSchema = storableText({ max: 200, min: 0 })
  .refine((term) => term === '' || term.length >= MIN_SEARCH_LENGTH, {
    error: `must have at least ${MIN_SEARCH_LENGTH} characters`,
  })
  .transform((term) => term || undefined)
  .optional();

/** An ILIKE pattern matching text that contains `term` as it is (its `%`, `_` and `\` are no wildcards). */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Whether a search term is a whole e-mail address. Such a term is matched by the customer's key (an equality on a
 * B-tree) rather than as a fragment: a trigram index reads every row that shares the address's common fragments
 * ("@gmail.com"), so it costs the whole table, and a whole address names one customer anyway.
 */
export const isWholeEmailAddress = (term: string) => z.email().safeParse(term).success;
