import { z } from 'zod';
import { type ErrorDetail, invalidRequest } from './errors.js';
import { MONEY_VALUE } from './money.js';

const money = z.object({
  currency_code: z.string().regex(/^[A-Z]{3}$/),
  value: z.string().max(32).regex(MONEY_VALUE),
});

const item = z.looseObject({
  name: z.string().min(1).max(127),
  quantity: z
    .string()
    .max(10)
    .regex(/^[1-9][0-9]{0,9}$/),
  unit_amount: money,
  tax: money.optional(),
  sku: z.string().max(127).optional(),
  description: z.string().max(127).optional(),
  category: z.enum(['DIGITAL_GOODS', 'PHYSICAL_GOODS', 'DONATION']).optional(),
});

const BREAKDOWN_KEYS = [
  'item_total',
  'tax_total',
  'shipping',
  'handling',
  'insurance',
  'shipping_discount',
  'discount',
] as const;
export type BreakdownKey = (typeof BREAKDOWN_KEYS)[number];

const purchaseUnit = z.looseObject({
  reference_id: z.string().min(1).max(256).optional(),
  custom_id: z.string().max(255).optional(),
  invoice_id: z.string().max(127).optional(),
  description: z.string().max(127).optional(),
  soft_descriptor: z.string().max(22).optional(),
  amount: money.extend({
    breakdown: z
      .object(
        Object.fromEntries(BREAKDOWN_KEYS.map((key) => [key, money.optional()])) as {
          [K in BreakdownKey]: z.ZodOptional<typeof money>;
        },
      )
      .optional(),
  }),
  items: z.array(item).max(100).optional(),
});

const experience = z.looseObject({
  return_url: z.string().max(4000).optional(),
  cancel_url: z.string().max(4000).optional(),
});

export const orderRequest = z.looseObject({
  intent: z.enum(['CAPTURE', 'AUTHORIZE']),
  purchase_units: z.array(purchaseUnit).min(1).max(10),
  payment_source: z
    .looseObject({ paypal: z.looseObject({ experience_context: experience.optional() }).optional() })
    .optional(),
  application_context: experience.optional(),
});
export type OrderRequest = z.infer<typeof orderRequest>;
export type PurchaseUnitRequest = z.infer<typeof purchaseUnit>;
export type ItemRequest = z.infer<typeof item>;

export const confirmRequest = z.looseObject({
  payment_source: z.looseObject({
    card: z
      .looseObject({
        name: z.string().min(1).max(300).optional(),
        number: z.string().max(19).optional(),
        expiry: z.string().max(7).optional(),
        security_code: z.string().max(4).optional(),
      })
      .optional(),
    paypal: z.looseObject({}).optional(),
  }),
});

export const refundRequest = z
  .looseObject({
    amount: money.optional(),
    custom_id: z.string().max(127).optional(),
    invoice_id: z.string().max(127).optional(),
    note_to_payer: z.string().max(255).optional(),
  })
  .optional();

export const verifyRequest = z.object({
  auth_algo: z.string().min(1).max(100),
  cert_url: z.string().min(1).max(500),
  transmission_id: z.string().min(1).max(50),
  transmission_sig: z.string().min(1).max(500),
  transmission_time: z.string().min(1).max(100),
  webhook_id: z.string().min(1).max(50),
  webhook_event: z.looseObject({}),
});

/**
 * PayPal names a purchase unit by its reference id in error paths:
 * `/purchase_units/@reference_id=='default'/amount/value`.
 */
export function pointer(path: ReadonlyArray<PropertyKey>, body: unknown): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    if (path[i - 1] === 'purchase_units' && typeof key === 'number') {
      const units = (body as { purchase_units?: Array<{ reference_id?: unknown }> }).purchase_units;
      const ref = units?.[key]?.reference_id;
      parts.push(`@reference_id=='${typeof ref === 'string' ? ref : 'default'}'`);
    } else {
      parts.push(String(key));
    }
  }
  return `/${parts.join('/')}`;
}

type ValidationIssue =
  | 'MISSING_REQUIRED_PARAMETER'
  | 'INVALID_PARAMETER_SYNTAX'
  | 'INVALID_PARAMETER_VALUE'
  | 'INVALID_STRING_LENGTH'
  | 'INVALID_ARRAY_MAX_ITEMS'
  | 'INVALID_ARRAY_MIN_ITEMS';

/** The operation a body was sent to: PayPal words (and allows) its validation issues per operation. */
export type Operation = 'create' | 'confirm' | 'refund';

export const CONFIRM_VALIDATION_TEXTS = {
  MISSING_REQUIRED_PARAMETER: 'A required field / parameter is missing',
  INVALID_PARAMETER_SYNTAX: 'The value of the field does not conform to the expected format.',
  INVALID_PARAMETER_VALUE: 'A parameter value is not valid.',
  INVALID_STRING_LENGTH: 'The value of a field is either too short or too long',
} as const;

/** Each operation's validation issues with their published texts; an issue it lacks is reported as a syntax error. */
const VALIDATION_TEXTS: Record<Operation, Partial<Record<ValidationIssue, string>>> = {
  create: {
    MISSING_REQUIRED_PARAMETER: 'A required parameter is missing.',
    INVALID_PARAMETER_SYNTAX: 'The value of a field does not conform to the expected format.',
    INVALID_PARAMETER_VALUE: 'A parameter value is not valid.',
    INVALID_STRING_LENGTH: 'The value of a field is either too short or too long',
    INVALID_ARRAY_MAX_ITEMS: 'The number of items in an array parameter is too large.',
    INVALID_ARRAY_MIN_ITEMS: 'The number of items in an array parameter is too small.',
  },
  confirm: CONFIRM_VALIDATION_TEXTS,
  refund: {
    MISSING_REQUIRED_PARAMETER: 'A required field / parameter is missing.',
    INVALID_PARAMETER_SYNTAX: 'The value of a field does not conform to the expected format.',
    INVALID_STRING_LENGTH: 'The value of a field is either too short or too long.',
  },
};

const issueOf = (issue: z.core.$ZodIssue): ValidationIssue => {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    return 'MISSING_REQUIRED_PARAMETER';
  }
  switch (issue.code) {
    case 'invalid_value':
      return 'INVALID_PARAMETER_VALUE';
    case 'too_big':
    case 'too_small':
      if (issue.origin === 'array') {
        return issue.code === 'too_big' ? 'INVALID_ARRAY_MAX_ITEMS' : 'INVALID_ARRAY_MIN_ITEMS';
      }
      return 'INVALID_STRING_LENGTH';
    default:
      return 'INVALID_PARAMETER_SYNTAX';
  }
};

const describe = (
  issue: z.core.$ZodIssue,
  operation: Operation,
): Pick<ErrorDetail, 'issue' | 'description'> => {
  const texts = VALIDATION_TEXTS[operation];
  const found = issueOf(issue);
  const text = texts[found];
  if (text !== undefined) return { issue: found, description: text };
  return { issue: 'INVALID_PARAMETER_SYNTAX', description: texts.INVALID_PARAMETER_SYNTAX ?? '' };
};

/** Parses a request body, turning schema failures into PayPal's 400 INVALID_REQUEST with one detail per field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, operation: Operation): z.infer<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  throw invalidRequest(
    result.error.issues.map((issue) => {
      const value =
        issue.input !== undefined && typeof issue.input !== 'object' ? String(issue.input) : undefined;
      return {
        field: pointer(issue.path, body),
        ...(value !== undefined ? { value } : {}),
        location: 'body',
        ...describe(issue, operation),
      };
    }),
    operation === 'refund' ? 'payments' : 'orders',
  );
}
