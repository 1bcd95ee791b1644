import { z } from 'zod';

/** An ILIKE pattern matching text that contains `term` as it is (its `%`, `_` and `\` are no wildcards). */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Whether a search term is a whole e-mail address. Such a term is matched by the customer's key (an equality on a
 * B-tree) rather than as a fragment: a trigram index reads every row that shares the address's common fragments
 * ("@gmail.com"), so it costs the whole table, and a whole address names one customer anyway.
 */
export const isWholeEmailAddress = (term: string) => z.email().safeParse(term).success;
