import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * An Ed25519 key as PEM, or as its DER in base64 (one line, so it fits an env file): PKCS#8 for a private key,
 * SPKI for a public one. A private key also gives its public half.
 */
export function parseEd25519Key(text: string, kind: 'private' | 'public'): KeyObject {
  const trimmed = text.trim();
  const pem = trimmed.startsWith('-----BEGIN');
  const der = Buffer.from(trimmed, 'base64');
  const key =
    kind === 'private'
      ? createPrivateKey(pem ? trimmed : { key: der, format: 'der', type: 'pkcs8' })
      : createPublicKey(pem ? trimmed : { key: der, format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/** '1'/'true' or '0'/'false' (any case); empty is unset, which leaves the choice to the environment's default. */
const flag = optionalString.pipe(
  z
    .string()
    .regex(/^(1|0|true|false)$/i, "'1', '0', 'true' or 'false'")
    .transform((value) => value === '1' || value.toLowerCase() === 'true')
    .optional(),
);

const ed25519Key = (kind: 'private' | 'public') =>
  optionalString.transform((text, context) => {
    if (text === undefined) return undefined;
    try {
      return parseEd25519Key(text, kind);
    } catch (error) {
      context.addIssue({
        code: 'custom',
        message: `an Ed25519 ${kind} key, PEM or base64 DER (${error instanceof Error ? error.message : error})`,
      });
      return z.NEVER;
    }
  });

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(5000),
    DATA_DIR: z.string().min(1).default('.data'),
    DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    EVENTSTORE_CONNECTION_STRING: optionalString.pipe(z.string().startsWith('esdb').optional()),
    PAYPAL_CLIENT_ID: optionalString,
    PAYPAL_CLIENT_SECRET: optionalString,
    /**
     * 1: payments go to the PayPal emulator (mounted at /paypal-sandbox, "payments are simulated" banner), never to
     * PayPal. Unset: simulated in development and test when PAYPAL_CLIENT_ID is unset; in production never, so a
     * production start without PayPal credentials refuses unless this says 1.
     */
    PAYPAL_SIMULATED: flag,
    PAYPAL_ENV: z.enum(['sandbox', 'live']).default('sandbox'),
    /** The webhook's id in the PayPal dashboard, needed to verify webhook signatures; the emulator has its own. */
    PAYPAL_WEBHOOK_ID: optionalString,
    /** Replaces the REST host PAYPAL_ENV picks, e.g. a PayPal emulator running on its own. */
    PAYPAL_API_BASE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** 1: the demo catalogue (products and DEMO keys) is seeded into an empty store. Unset: in development only. */
    SEED_DEMO: flag,
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: z.string().default('LicenseStore <no-reply@licensestore.local>'),
    /** Uploaded images go to this S3 (or S3-compatible) bucket; unset keeps them under DATA_DIR/uploads. */
    S3_BUCKET: optionalString,
    /** An S3-compatible service (MinIO, R2, …), addressed path-style; unset is AWS. */
    S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    /** Both or neither; neither uses the AWS SDK's default credential chain (environment, instance role). */
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    SESSION_SECRET: optionalString.pipe(z.string().min(32).optional()),
    /** Seals license keys at rest (AES-256-GCM) and fingerprints them; every role must share it. */
    LICENSE_KEY_SECRET: optionalString.pipe(z.string().min(32).optional()),
    /**
     * LICENSE_KEY_SECRET's earlier name. Set, a role refuses to start: run on without it, a role that finds no
     * LICENSE_KEY_SECRET would seal new keys under another secret than the sold ones.
     */
    LICENCE_KEY_SECRET: optionalString.pipe(
      z.undefined({ error: 'renamed LICENSE_KEY_SECRET: set that instead, to the same value' }).optional(),
    ),
    /** Encrypts the secrets in a backup (`npm run backup`) and opens them on restore; unset, both refuse. */
    BACKUP_PASSPHRASE: optionalString,
    /**
     * A PEM file of an X25519 public key: `npm run backup` seals the secrets for it instead of with the passphrase, so
     * the machine taking backups holds nothing that opens them.
     */
    BACKUP_RECIPIENT: optionalString,
    /** A PEM file of that key's private half: `npm run restore` opens with it instead of the passphrase. */
    BACKUP_IDENTITY: optionalString,
    /** Fewer available keys than this makes a product low on stock (admin API, e-mail to ADMIN_EMAIL); 0 turns it off. */
    LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(5),
    /** Where low-stock alerts go; unset sends none. */
    ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
    ADMIN_USERNAME: z.string().min(1).default('admin'),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(12).optional()),
    /**
     * The origin browsers reach the site at: every absolute link (e-mails, upload URLs) and the same-origin check
     * are built from it, never from a request's Host header. Unset: http://localhost:PORT.
     */
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /**
     * Express 'trust proxy': unset trusts no proxy (req.ip is the peer). Behind a load balancer set the number of
     * proxy hops or their addresses, so login throttling and logs see the client's address.
     */
    TRUST_PROXY: optionalString.transform((value) =>
      value === undefined ? false : /^\d+$/.test(value) ? Number(value) : value === 'true' ? true : value,
    ),
    /** The built web client to serve; unset serves this checkout's web/dist (which `npm start` builds when stale). */
    WEB_DIST: optionalString,
    /** Signs audit exports (`npm run audit:export`); unset, the export refuses: an unsigned export proves nothing. */
    AUDIT_SIGNING_KEY: ed25519Key('private'),
    /** The key `npm run audit:check-export` trusts; unset, the public half of AUDIT_SIGNING_KEY. */
    AUDIT_VERIFY_KEY: ed25519Key('public'),
    /** The seller named on receipts; required in production, a demo name elsewhere. */
    SELLER_NAME: optionalString.pipe(z.string().max(200).optional()),
    /** The seller's postal address on receipts, its lines separated by `\n` or `;`; required in production. */
    SELLER_ADDRESS: optionalString.pipe(z.string().max(500).optional()),
    /** The address customers write to about a receipt; unset: none on the receipt (a demo address outside production). */
    SELLER_EMAIL: optionalString.pipe(z.email().optional()),
    /** Where customer emails (delivery, refund) tell customers to write with questions; the storefront's address. */
    SUPPORT_EMAIL: optionalString
      .pipe(z.email().optional())
      .transform((value) => value ?? 'support@licensestore.local'),
    /** The seller's tax or VAT number on receipts; unset: none (a demo number outside production). */
    SELLER_TAX_ID: optionalString.pipe(z.string().max(100).optional()),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /**
     * GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, only callers on this machine's
     * loopback. Bearer-token characters only, so a quoted or spaced value fails at start, not at every scrape.
     */
    METRICS_TOKEN: optionalString.pipe(
      z
        .string()
        .min(16, 'at least 16 characters')
        .regex(/^[\w.~+/-]+=*$/, 'letters, digits and - . _ ~ + / only (a bearer token)')
        .optional(),
    ),
  })
  .superRefine((config, context) => {
    if ((config.S3_ACCESS_KEY_ID === undefined) !== (config.S3_SECRET_ACCESS_KEY === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither',
      });
    }
    const s3Set = config.S3_ENDPOINT || config.S3_ACCESS_KEY_ID || config.S3_SECRET_ACCESS_KEY;
    if (s3Set && !config.S3_BUCKET) {
      context.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'required when other S3_* variables are set',
      });
    }
    for (const issue of paymentIssues(config)) context.addIssue({ code: 'custom', ...issue });
    if (config.NODE_ENV === 'production' && !config.PUBLIC_URL) {
      context.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          'required in production: the origin browsers reach the store at (links in emails are built from it)',
      });
    }
    for (const key of ['SELLER_NAME', 'SELLER_ADDRESS'] as const) {
      if (config.NODE_ENV === 'production' && !config[key]) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'required in production: every receipt names the seller and its address',
        });
      }
    }
  })
  // The old name is only ever refused, so it is no field of the parsed configuration.
  .transform(({ PAYPAL_SIMULATED, SEED_DEMO, LICENCE_KEY_SECRET: _refused, ...config }) => ({
    ...config,
    PAYPAL_SIMULATED: PAYPAL_SIMULATED ?? (config.NODE_ENV !== 'production' && !config.PAYPAL_CLIENT_ID),
    SEED_DEMO: SEED_DEMO ?? config.NODE_ENV === 'development',
  }));

/**
 * Payments are real (both PayPal credentials) or simulated (the emulator), never a guess: production never falls back
 * to the emulator, and PAYPAL_SIMULATED=1 beside credentials would leave unclear which one takes the money.
 */
function paymentIssues(config: {
  NODE_ENV: string;
  PAYPAL_CLIENT_ID?: string | undefined;
  PAYPAL_CLIENT_SECRET?: string | undefined;
  PAYPAL_SIMULATED?: boolean | undefined;
}): Array<{ path: string[]; message: string }> {
  const { PAYPAL_CLIENT_ID: id, PAYPAL_CLIENT_SECRET: secret, PAYPAL_SIMULATED: simulated } = config;
  if ((id === undefined) !== (secret === undefined)) {
    return [
      {
        path: [id === undefined ? 'PAYPAL_CLIENT_ID' : 'PAYPAL_CLIENT_SECRET'],
        message: 'PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together: set both or neither',
      },
    ];
  }
  const credentials = id !== undefined;
  if (simulated === true && credentials) {
    return [
      {
        path: ['PAYPAL_SIMULATED'],
        message:
          '1 runs the PayPal emulator: unset it to take payments with PAYPAL_CLIENT_ID, or unset the credentials',
      },
    ];
  }
  const realRequired = simulated === false || (simulated === undefined && config.NODE_ENV === 'production');
  if (realRequired && !credentials) {
    return [
      {
        path: ['PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET'],
        message: `required ${simulated === false ? 'with PAYPAL_SIMULATED=0' : 'in production'} (real PayPal); or PAYPAL_SIMULATED=1 to take no money and run the PayPal emulator`,
      },
    ];
  }
  return [];
}

export type Config = z.infer<typeof configSchema>;

/** PUBLIC_URL without a trailing slash, or the local default; links are `${publicUrl(config)}/path`. */
export const publicUrl = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');

/** Who sells, as every receipt says it. */
export interface SellerDetails {
  name: string;
  addressLines: string[];
  email: string | null;
  taxId: string | null;
}

const DEMO_SELLER = {
  SELLER_NAME: 'LicenseStore Demo Ltd',
  SELLER_ADDRESS: '1 Example Street;Springfield, IL 62701;United States',
  SELLER_EMAIL: 'billing@licensestore.local',
  SELLER_TAX_ID: 'DEMO-TAX-0000',
};

/**
 * The seller's details for receipts. Outside production whatever is unset takes a demo value, so a local store's
 * receipts are complete; production requires the name and the address (the schema refuses a start without them).
 */
export function sellerDetails(
  config: Pick<Config, 'NODE_ENV' | 'SELLER_NAME' | 'SELLER_ADDRESS' | 'SELLER_EMAIL' | 'SELLER_TAX_ID'>,
): SellerDetails {
  const demo = config.NODE_ENV === 'production' ? undefined : DEMO_SELLER;
  return {
    name: config.SELLER_NAME ?? demo?.SELLER_NAME ?? '',
    addressLines: (config.SELLER_ADDRESS ?? demo?.SELLER_ADDRESS ?? '')
      .split(/\\n|\n|;/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    email: config.SELLER_EMAIL ?? demo?.SELLER_EMAIL ?? null,
    taxId: config.SELLER_TAX_ID ?? demo?.SELLER_TAX_ID ?? null,
  };
}

/** Reads and validates the environment once; an invalid value fails with the list of bad keys. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return parsed.data;
}

/** A role (api, projections, workers) needs concrete URLs; `npm start` fills them in for embedded services. */
export function requireUrl(config: Config, key: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = config[key];
  if (!value) throw new ConfigError([`${key}: required when this role runs on its own`]);
  return value;
}

/** Roles that read or write license keys need the shared secret; `npm start` keeps one in DATA_DIR. */
export function requireLicenseKeySecret(config: Config): string {
  const value = config.LICENSE_KEY_SECRET;
  if (!value) {
    throw new ConfigError([
      'LICENSE_KEY_SECRET: required when this role runs on its own (npm start generates one into DATA_DIR)',
    ]);
  }
  return value;
}

/** What every role logs at start when a production store takes no money, or undefined. */
export function simulatedPaymentsWarning(
  config: Pick<Config, 'NODE_ENV' | 'PAYPAL_SIMULATED'>,
): string | undefined {
  if (config.NODE_ENV !== 'production' || !config.PAYPAL_SIMULATED) return undefined;
  return 'PAYPAL_SIMULATED=1 in production: payments are simulated by the PayPal emulator, no money is taken and anyone can pay with a test card';
}
