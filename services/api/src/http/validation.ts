import { ValidationError } from '@licensestore/shared';
import type { ZodError, ZodType, z } from 'zod';

const describeType = (input: unknown) =>
  input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;

/** Messages for issues whose schema did not say something more specific itself. */
const fallbackMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'is required';
  return `must be ${issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}, not ${describeType(issue.input)}`;
};

/** "regularPrice: must be an amount like 19.99"; issues about the body as a whole read as a sentence. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.path.length > 0) return `${issue.path.join('.')}: ${issue.message}`;
      if (issue.code === 'invalid_type') return 'Request body must be a JSON object';
      return issue.message;
    })
    .join('; ');
}

/** Parses an untrusted request value; a mismatch is a 400 naming the offending fields. */
export function parseRequest<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { error: fallbackMessages });
  if (!result.success) throw new ValidationError(describeZodError(result.error));
  return result.data;
}
