import { storableText } from '@licensestore/domain/text';

/** Trigram indexes answer a search only from three characters on; shorter terms would read the whole table. */
const MIN_SEARCH_LENGTH = 3;

/** A list's free-text `q`: trimmed, three to 200 characters Postgres can hold; blank means no search. */
export const searchTermSchema = storableText({ max: 200, min: 0 })
  .refine((term) => term === '' || term.length >= MIN_SEARCH_LENGTH, {
    error: `must have at least ${MIN_SEARCH_LENGTH} characters`,
  })
  .transform((term) => term || undefined)
  .optional();
