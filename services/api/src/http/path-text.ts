import { ValidationError } from '@licensestore/domain';
import { unstorableCharacter } from '@licensestore/domain/text';
import type { RequestHandler } from 'express';

/** The segment decoded as a route's parameter is; null when it is not valid percent-encoded UTF-8. */
const decoded = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * A path parameter is text the route looks up or stores, so every segment of every request's path, decoded, passes
 * the one-line storable-text rule that bodies pass: a 400 naming the character, before any route hands it to
 * Postgres (which refuses NUL) or to a log. One check for every route, those added later included. A segment that
 * does not decode is left to the router, which refuses it with its own 400.
 */
export const refuseUnstorablePaths: RequestHandler = (req, _res, next) => {
  for (const segment of req.path.split('/')) {
    const character = unstorableCharacter(decoded(segment) ?? '');
    if (character) {
      next(new ValidationError(`Request path: contains a character that cannot be stored (${character})`));
      return;
    }
  }
  next();
};
