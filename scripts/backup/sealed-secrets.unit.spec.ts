import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newRecipientKeys, openingKey, openSecrets, sealingKey, sealSecrets } from './sealed-secrets.js';

const secrets = { LICENCE_KEY_SECRET: randomBytes(32).toString('base64url') };
const dir = mkdtempSync(join(tmpdir(), 'sealed-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyFiles() {
  const { recipient, identity } = newRecipientKeys();
  const name = randomBytes(4).toString('hex');
  const files = { recipient: join(dir, `${name}.pub.pem`), identity: join(dir, `${name}.pem`) };
  writeFileSync(files.recipient, recipient);
  writeFileSync(files.identity, identity);
  return files;
}

describe('Sealed backup secrets', () => {
  it('open with the passphrase they were sealed with, and with no other', async () => {
    const sealed = await sealSecrets(secrets, 'a passphrase long enough');
    expect(sealed).not.toContain(secrets.LICENCE_KEY_SECRET);
    expect(await openSecrets(sealed, 'a passphrase long enough')).toEqual(secrets);
    await expect(openSecrets(sealed, 'another passphrase here')).rejects.toThrow('wrong passphrase');
  });

  it("sealed for a recipient's public key, open only with its private key", async () => {
    const mine = keyFiles();
    const sealed = await sealSecrets(secrets, sealingKey({ BACKUP_RECIPIENT: mine.recipient }));
    expect(sealed).not.toContain(secrets.LICENCE_KEY_SECRET);
    expect(await openSecrets(sealed, openingKey({ BACKUP_IDENTITY: mine.identity }))).toEqual(secrets);

    const theirs = keyFiles();
    await expect(openSecrets(sealed, openingKey({ BACKUP_IDENTITY: theirs.identity }))).rejects.toThrow(
      'wrong key: secrets.enc is sealed for another recipient',
    );
    await expect(openSecrets(sealed, 'a passphrase long enough')).rejects.toThrow(
      'secrets.enc is sealed for a recipient key: set BACKUP_IDENTITY',
    );
  });

  it('refuse a passphrase-sealed part offered an identity, naming the variable to set', async () => {
    const sealed = await sealSecrets(secrets, 'a passphrase long enough');
    await expect(openSecrets(sealed, openingKey({ BACKUP_IDENTITY: keyFiles().identity }))).rejects.toThrow(
      'set BACKUP_PASSPHRASE, not BACKUP_IDENTITY',
    );
  });

  it('are a configuration error without a passphrase or recipient, with a short one, or with a key not X25519', () => {
    expect(() => sealingKey({})).toThrow('BACKUP_PASSPHRASE: not set (nor BACKUP_RECIPIENT)');
    expect(() => openingKey({ BACKUP_PASSPHRASE: 'short' })).toThrow('at least 12 characters');
    const notAKey = join(dir, 'not-a-key.pem');
    writeFileSync(notAKey, 'hello');
    expect(() => sealingKey({ BACKUP_RECIPIENT: notAKey })).toThrow(
      `BACKUP_RECIPIENT: ${notAKey} is not a usable PEM key`,
    );
    expect(() => sealingKey({ BACKUP_RECIPIENT: keyFiles().identity })).toThrow(
      'it holds a private key; give only its public half',
    );
    const rsa = join(dir, 'rsa.pub.pem');
    writeFileSync(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    expect(() => sealingKey({ BACKUP_RECIPIENT: rsa })).toThrow(`${rsa} holds an rsa key, not an X25519 one`);
  });
});
