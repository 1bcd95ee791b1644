import { usernameKey } from '@licensestore/domain/back-office';
import unhomoglyph from 'unhomoglyph';

/**
 * What a username looks like, for telling apart names a person cannot: the confusable skeleton of Unicode TS #39
 * (decomposed, each character replaced by the prototype of its confusables, decomposed again) of its key, in lower
 * case as usernames ignore case. `аdmin` with a Cyrillic а, `ɑdmin` and `adrnin` all look like `admin`. The
 * table is Unicode's confusables.txt, as the unhomoglyph package ships it.
 */
export const usernameSkeleton = (username: string): string =>
  unhomoglyph(usernameKey(username).normalize('NFD')).normalize('NFD').toLowerCase();
