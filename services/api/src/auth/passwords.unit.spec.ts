import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('Password hashing', () => {
  it('writes a self-describing scrypt hash with a fresh salt each time', async () => {
    const [first, second] = await Promise.all([
      hashPassword('hunter2 hunter2'),
      hashPassword('hunter2 hunter2'),
    ]);
    expect(first).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse ')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('treats canonically equal Unicode spellings as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword(hash, 'cafe\u0301 au lait')).toBe(true);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const weaker = (await hashPassword('pw')).replace('ln=15', 'ln=14');
    // Same salt and key but other parameters: the derived key differs, so it must not verify.
    expect(await verifyPassword(weaker, 'pw')).toBe(false);
  });

  it.each([
    ['not a hash'],
    ['$scrypt$ln=15,r=8,p=1$c2FsdA$'],
    ['$scrypt$ln=15,r=8,p=1$c2FsdA$c2hvcnQ'],
    ['$scrypt$ln=40,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'],
    ['$scrypt$ln=15,r=0,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'],
  ])('refuses a malformed or out-of-bounds stored hash: %s', async (stored) => {
    expect(await verifyPassword(stored, 'anything')).toBe(false);
  });
});
