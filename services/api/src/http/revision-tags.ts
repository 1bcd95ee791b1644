import { ValidationError } from '@licensestore/domain';
import type { Request, Response } from 'express';

/**
 * A stream's revision as a strong ETag ("3"): the revision names exactly one state of the aggregate, so two answers
 * with one tag always stem from the same events, which is what a write's If-Match needs to compare against.
 */
export const setRevisionTag = (res: Response, revision: bigint) => res.setHeader('ETag', `"${revision}"`);

const REVISION_TAG = /^"(\d{1,19})"$/;

/**
 * The revision a write's If-Match names, undefined without one. Only one tag as this API gives it counts: a weak tag
 * never matches under If-Match's strong comparison, and a list or `*` asks for something no back-office screen
 * needs, so each is refused rather than half honoured.
 */
export function ifMatchRevision(req: Request): bigint | undefined {
  const header = req.get('if-match');
  if (header === undefined) return undefined;
  const tag = REVISION_TAG.exec(header.trim());
  if (!tag?.[1])
    throw new ValidationError(
      'If-Match must be one ETag as this API gave it, such as "3": the revision you loaded',
    );
  return BigInt(tag[1]);
}
