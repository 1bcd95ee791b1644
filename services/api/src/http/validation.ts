import { ValidationError } from '@licensestore/domain';
import type { ZodError, ZodType, z } from 'zod';

const article = (type: string | undefined) => (type && /^[aeiou]/.test(type) ? 'an' : 'a');

const describeType = (input: unknown) =>
  input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;

/** Messages for issues whose schema did not say something more specific itself. */
const fallbackMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is required';
    return `must be ${article(issue.expected)} ${issue.expected}, not ${describeType(issue.input)}`;
  }
  if (issue.code === 'invalid_union') {
    // The branch that got past its type check says what is wrong (e.g. a malformed amount); otherwise list the types.
    const branches = issue.errors.flat();
    const specific = branches.find(
      (branch) => branch.code !== 'invalid_type' && branch.code !== 'invalid_value',
    );
    if (specific) return specific.message;
    const expected = [
      ...new Set(branches.flatMap((branch) => (branch.code === 'invalid_type' ? [branch.expected] : []))),
    ];
    if (expected.length > 0)
      return `must be ${article(expected[0])} ${expected.join(' or ')}, not ${describeType(issue.input)}`;
  }
  return undefined;
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
