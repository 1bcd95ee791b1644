import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt, N = 2^15, r = 8, p = 1: 32 MiB per hash, so a burst of sign-ins fits a small container. The parameters
 * travel in the hash string, so they can be raised later while older hashes still verify.
 */
const DEFAULT_PARAMS = { logN: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Accepting parameters from the stored hash is safe only within bounds: a corrupted row must not exhaust memory. */
const MAX_LOG_N = 20;
const MIN_KEY_LENGTH = 16;

const derive = (password: string, salt: Buffer, keyLength: number, params: typeof DEFAULT_PARAMS) => {
  const options: ScryptOptions = {
    N: 2 ** params.logN,
    r: params.r,
    p: params.p,
    maxmem: 256 * 2 ** params.logN * params.r,
  };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
};

/** 18 random bytes, base64url (24 characters): for accounts created without a chosen password, shown once. */
export const generatePassword = () => randomBytes(18).toString('base64url');

/** A self-describing PHC-style string: `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64, no padding). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, DEFAULT_PARAMS);
  const { logN, r, p } = DEFAULT_PARAMS;
  return `$scrypt$ln=${logN},r=${r},p=${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([\w-]+)\$([\w-]+)$/;

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, logN, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  const expected = Buffer.from(hash, 'base64url');
  if (params.logN > MAX_LOG_N || params.r < 1 || params.p < 1 || expected.length < MIN_KEY_LENGTH)
    return false;
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, params);
  return timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, checked when the username is unknown so that a miss costs as much as a wrong
 * password and response times do not reveal which usernames exist.
 */
export const unknownUserHash: () => Promise<string> = (() => {
  let hash: Promise<string> | undefined;
  return () => {
    hash ??= hashPassword(randomBytes(16).toString('hex'));
    return hash;
  };
})();
