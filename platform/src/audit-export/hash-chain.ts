import { createHash } from 'node:crypto';

/** `"key":value` for each member the object defines, in key order (UTF-16 code units: JavaScript's default sort). */
function membersOf(object: object): Array<{ key: string; text: string }> {
  const members: Array<{ key: string; text: string }> = [];
  for (const key of Object.keys(object).sort()) {
    const item = (object as Record<string, unknown>)[key];
    if (item !== undefined) members.push({ key, text: `${JSON.stringify(key)}:${canonicalJson(item)}` });
  }
  return members;
}

const objectOf = (members: Array<{ text: string }>) => `{${members.map((member) => member.text).join(',')}}`;

/**
 * RFC 8785 (JSON Canonicalization Scheme) for JSON values: no whitespace, object keys sorted by UTF-16 code units
 * (JavaScript's default sort), strings and numbers as ECMAScript's JSON.stringify writes them, which is exactly
 * what the RFC specifies. Values JSON cannot carry (NaN, Infinity, undefined in an array, bigint) are refused
 * rather than written as something else; an undefined property is left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not a JSON number`);
    return JSON.stringify(value);
  }
  // Built as one string, not arrays of parts joined: every event of a restore or an export passes through here.
  if (Array.isArray(value)) {
    let text = '[';
    for (let at = 0; at < value.length; at++) text += `${at === 0 ? '' : ','}${canonicalJson(value[at])}`;
    return `${text}]`;
  }
  if (typeof value === 'object') {
    let text = '{';
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined)
        text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
    }
    return `${text}}`;
  }
  throw new TypeError(`a ${typeof value} is not a JSON value`);
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** A line of the chain without its own hash; `prev` is the hash of the line before (the genesis for the first). */
export type UnhashedLine = Record<string, unknown> & { prev: string };

/** SHA-256 of the canonical JSON of everything in the line but `hash`. `prev` is covered, so each line commits to all before it. */
export const lineHash = (line: UnhashedLine) => sha256Hex(canonicalJson(line));

/** Links records into a chain and writes each as one canonical JSON line (no newline) carrying `prev` and `hash`. */
export class HashChain {
  head: string;
  count = 0;

  constructor(readonly genesis: string) {
    this.head = genesis;
  }

  link(record: Record<string, unknown>): string {
    // Each member is serialised once: the hashed text and the written line differ only by the `hash` member.
    const members = membersOf({ ...record, prev: this.head });
    const hash = sha256Hex(objectOf(members));
    this.head = hash;
    this.count += 1;
    const at = members.findIndex((member) => member.key > 'hash');
    members.splice(at === -1 ? members.length : at, 0, {
      key: 'hash',
      text: `"hash":${JSON.stringify(hash)}`,
    });
    return objectOf(members);
  }
}
