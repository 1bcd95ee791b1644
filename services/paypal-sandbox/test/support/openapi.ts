import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

/** PayPal's published specifications, vendored unmodified (see openapi/README.md). */
const SPECS = {
  orders: 'checkout_orders_v2.json',
  payments: 'payments_payment_v2.json',
} as const;
export type SpecName = keyof typeof SPECS;

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
}

const load = (file: string) =>
  JSON.parse(readFileSync(new URL(`../openapi/${file}`, import.meta.url), 'utf8')) as OpenApiDocument;

/**
 * PayPal names its own value types in `format` (an OpenAPI `format` is open-ended). Each one is constrained by
 * `pattern`, `minLength`/`maxLength` or an enum beside it, so they are annotations here; listed one by one so
 * that a new name in a future version of the specification is noticed instead of passing silently.
 */
const PAYPAL_FORMATS = [
  'merchant_common_email_address_v2',
  'ppaas_payer_id_v3',
  'ppaas_date_notime_v2',
  'ppaas_common_country_code_v2',
  'payer_v1',
  'ppaas_common_currency_code_v2',
  'ppaas_common_language_v3',
  'ppaas_common_email_address_v2',
  'ppaas_ip_address_v1',
  'ppaas_date_time_v3',
];

export interface Nonconformity {
  status: number;
  errors: Array<Pick<ErrorObject, 'instancePath' | 'message' | 'params'>>;
}

/**
 * Validates answers against the response schema the specification gives for an operation and a status code
 * (the code's own entry, or `default` for an error code the operation does not list). `$ref`s resolve inside
 * each document, which ajv holds whole under the spec's name; only the schema fragments are compiled.
 */
export function openApiValidator() {
  // strict: false because the documents carry OpenAPI's own keywords (`paths`, `example`, `x-…`) beside the
  // schemas; every JSON Schema keyword still applies. Patterns are ECMA-262 regular expressions without the
  // `u` flag (PayPal's e-mail pattern escapes characters that unicode mode refuses).
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, unicodeRegExp: false });
  // ajv-formats is CommonJS: its default export is the module, whose `default` is the plugin.
  ajvFormats.default(ajv);
  for (const format of PAYPAL_FORMATS) ajv.addFormat(format, true);
  const documents = new Map<SpecName, OpenApiDocument>();
  for (const [name, file] of Object.entries(SPECS) as Array<[SpecName, string]>) {
    const document = load(file);
    documents.set(name, document);
    ajv.addSchema(document as object, name);
  }
  const compiled = new Map<string, ValidateFunction>();

  /** The JSON pointer (inside the document) of the response schema, or null when the status is not specified. */
  const schemaPointer = (spec: SpecName, method: string, path: string, status: number): string | null => {
    const operation = documents.get(spec)?.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${spec} has no operation ${method} ${path}`);
    const code = String(status) in operation.responses ? String(status) : status >= 400 ? 'default' : null;
    if (code === null) return null;
    const response = operation.responses[code];
    const escaped = path.replaceAll('~', '~0').replaceAll('/', '~1');
    if (response?.$ref) return `${response.$ref.slice(1)}/content/application~1json/schema`;
    if (!response?.content?.['application/json']) return null;
    return `/paths/${escaped}/${method.toLowerCase()}/responses/${code}/content/application~1json/schema`;
  };

  const validateAt = (
    spec: SpecName,
    pointer: string,
    status: number,
    body: unknown,
  ): Nonconformity | null => {
    const ref = `${spec}#${pointer}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    if (validate(body)) return null;
    return {
      status,
      errors: (validate.errors ?? []).map(({ instancePath, message, params }) => ({
        instancePath,
        message,
        params,
      })),
    };
  };

  return {
    /** Null when `body` is what the specification allows for this operation and status; otherwise why not. */
    check(spec: SpecName, method: string, path: string, status: number, body: unknown): Nonconformity | null {
      const pointer = schemaPointer(spec, method, path, status);
      if (pointer === null) {
        return {
          status,
          errors: [{ instancePath: '', message: 'status not in the specification', params: {} }],
        };
      }
      return validateAt(spec, pointer, status, body);
    },
    /** Null when `body` is an instance of the named component schema (a webhook's resource). */
    checkSchema(spec: SpecName, schema: string, body: unknown): Nonconformity | null {
      return validateAt(spec, `/components/schemas/${schema}`, 200, body);
    },
  };
}
