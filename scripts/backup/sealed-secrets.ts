import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  randomBytes,
  scrypt,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Config, ConfigError } from '@licensestore/platform/config';
import { z } from 'zod';
import { BackupRefusedError, SECRETS_FILE } from './format.js';

/**
 * The secrets a restored store cannot do without (the license-key secret seals every sold key and signs links), under
 * the name the first backups held it by.
 */
export const secretsSchema = z.object({ LICENCE_KEY_SECRET: z.string().min(32) });
export type BackupSecrets = z.infer<typeof secretsSchema>;

/**
 * What seals a backup's secrets: a passphrase, or a recipient's X25519 public key, so the machine taking backups holds
 * nothing that opens them (the private key, the identity, stays with whoever restores).
 */
export type SealingKey = string | { recipient: KeyObject };
/** What opens them: the passphrase, or the recipient's private key. */
export type OpeningKey = string | { identity: KeyObject };

/** scrypt's cost: 2^17 × 8 × 128 bytes = 128 MiB and about half a second, once per backup or restore. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
const MIN_PASSPHRASE = 12;
const KEM = 'x25519-hkdf-sha256';
const HKDF_INFO = 'licensestore backup secrets';

const sealed = {
  cipher: z.literal('aes-256-gcm'),
  iv: z.string(),
  tag: z.string(),
  ciphertext: z.string(),
};
const sealedSecretsSchema = z.union([
  z.object({
    ...sealed,
    kdf: z.literal('scrypt'),
    N: z.number().int(),
    r: z.number().int(),
    p: z.number().int(),
    salt: z.string(),
  }),
  z.object({
    ...sealed,
    kem: z.literal(KEM),
    /** The one-off public key of this sealing (DER, SPKI), whose private half was thrown away. */
    ephemeral: z.string(),
    /** The SHA-256 of the recipient's public key (DER, SPKI): which identity opens it. */
    recipient: z.string(),
  }),
]);

const derive = (passphrase: string, salt: Buffer, params: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase, salt, 32, { ...params, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
const fingerprint = (key: KeyObject) => createHash('sha256').update(spki(key)).digest('hex');

/** The AES key an X25519 agreement between the ephemeral and the recipient's keys gives, bound to both public keys. */
const agreedKey = (privateKey: KeyObject, publicKey: KeyObject, ephemeral: Buffer, recipient: Buffer) =>
  Buffer.from(
    hkdfSync(
      'sha256',
      diffieHellman({ privateKey, publicKey }),
      Buffer.concat([ephemeral, recipient]),
      HKDF_INFO,
      32,
    ),
  );

function readKey(variable: string, file: string, make: (pem: Buffer) => KeyObject): KeyObject {
  let key: KeyObject;
  try {
    key = make(readFileSync(file));
  } catch (error) {
    throw new ConfigError([`${variable}: ${file} is not a usable PEM key (${(error as Error).message})`]);
  }
  if (key.asymmetricKeyType !== 'x25519') {
    throw new ConfigError([`${variable}: ${file} holds an ${key.asymmetricKeyType} key, not an X25519 one`]);
  }
  return key;
}

function isPrivateKey(pem: Buffer): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/**
 * The passphrase; a configuration error (exit 2) when it is missing, or too short to stand against guessing by
 * whoever gets a copy of the backup.
 */
function checkPassphrase(passphrase: string | undefined): string {
  if (!passphrase) {
    throw new ConfigError([
      'BACKUP_PASSPHRASE: not set (nor BACKUP_RECIPIENT); a backup holds the license-key secret, which it keeps only ' +
        'encrypted',
    ]);
  }
  if (passphrase.length < MIN_PASSPHRASE) {
    throw new ConfigError([`BACKUP_PASSPHRASE: at least ${MIN_PASSPHRASE} characters`]);
  }
  return passphrase;
}

/** How `npm run backup` seals: for BACKUP_RECIPIENT's public key when set, else with BACKUP_PASSPHRASE. */
export function sealingKey(config: Pick<Config, 'BACKUP_PASSPHRASE' | 'BACKUP_RECIPIENT'>): SealingKey {
  if (config.BACKUP_RECIPIENT) {
    const recipient = readKey('BACKUP_RECIPIENT', config.BACKUP_RECIPIENT, (pem) => {
      // The private half on the machine taking backups would let anyone who takes that machine open them.
      if (isPrivateKey(pem)) throw new Error('it holds a private key; give only its public half');
      return createPublicKey(pem);
    });
    return { recipient };
  }
  return checkPassphrase(config.BACKUP_PASSPHRASE);
}

/** How `npm run restore` opens: with BACKUP_IDENTITY's private key when set, else with BACKUP_PASSPHRASE. */
export function openingKey(config: Pick<Config, 'BACKUP_PASSPHRASE' | 'BACKUP_IDENTITY'>): OpeningKey {
  if (config.BACKUP_IDENTITY) {
    return { identity: readKey('BACKUP_IDENTITY', config.BACKUP_IDENTITY, createPrivateKey) };
  }
  return checkPassphrase(config.BACKUP_PASSPHRASE);
}

/** A new recipient key pair, as PEM: the public half seals backups, the private half restores them. */
export function newRecipientKeys(): { recipient: string; identity: string } {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    recipient: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    identity: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * The secrets as JSON, encrypted with AES-256-GCM under a key scrypt derives from the passphrase, or one agreed
 * (X25519, then HKDF-SHA256) between a one-off key pair and the recipient's public key.
 */
export async function sealSecrets(secrets: BackupSecrets, key: SealingKey): Promise<string> {
  const iv = randomBytes(12);
  let header: Record<string, unknown>;
  let aesKey: Buffer;
  if (typeof key === 'string') {
    const salt = randomBytes(16);
    aesKey = await derive(key, salt, SCRYPT);
    header = { kdf: 'scrypt', ...SCRYPT, salt: salt.toString('base64') };
  } else {
    const ephemeral = generateKeyPairSync('x25519');
    const ephemeralDer = spki(ephemeral.publicKey);
    aesKey = agreedKey(ephemeral.privateKey, key.recipient, ephemeralDer, spki(key.recipient));
    header = { kem: KEM, ephemeral: ephemeralDer.toString('base64'), recipient: fingerprint(key.recipient) };
  }
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return `${JSON.stringify({
    cipher: 'aes-256-gcm',
    ...header,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  })}\n`;
}

/**
 * The secrets back. A key of the wrong kind is refused by name; a passphrase or identity that is not the one they
 * were sealed for fails GCM's tag and is refused.
 */
export async function openSecrets(text: string, key: OpeningKey): Promise<BackupSecrets> {
  const sealedSecrets = sealedSecretsSchema.parse(JSON.parse(text));
  let aesKey: Buffer;
  let wrong: string;
  if ('kdf' in sealedSecrets) {
    if (typeof key !== 'string') {
      throw new BackupRefusedError(
        `${SECRETS_FILE} is sealed with a passphrase, not for a recipient key: set BACKUP_PASSPHRASE, not BACKUP_IDENTITY`,
      );
    }
    aesKey = await derive(key, Buffer.from(sealedSecrets.salt, 'base64'), sealedSecrets);
    wrong = `wrong passphrase: ${SECRETS_FILE} does not open with BACKUP_PASSPHRASE (nothing was restored)`;
  } else {
    if (typeof key === 'string') {
      throw new BackupRefusedError(
        `${SECRETS_FILE} is sealed for a recipient key: set BACKUP_IDENTITY to its private key, not BACKUP_PASSPHRASE`,
      );
    }
    const recipient = createPublicKey(key.identity);
    if (fingerprint(recipient) !== sealedSecrets.recipient) {
      throw new BackupRefusedError(
        `wrong key: ${SECRETS_FILE} is sealed for another recipient than BACKUP_IDENTITY's (nothing was restored)`,
      );
    }
    const ephemeralDer = Buffer.from(sealedSecrets.ephemeral, 'base64');
    const ephemeral = createPublicKey({ key: ephemeralDer, format: 'der', type: 'spki' });
    aesKey = agreedKey(key.identity, ephemeral, ephemeralDer, spki(recipient));
    wrong = `${SECRETS_FILE} does not open with BACKUP_IDENTITY (nothing was restored)`;
  }
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(sealedSecrets.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealedSecrets.tag, 'base64'));
  let plain: string;
  try {
    plain = Buffer.concat([
      decipher.update(Buffer.from(sealedSecrets.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new BackupRefusedError(wrong);
  }
  return secretsSchema.parse(JSON.parse(plain));
}
