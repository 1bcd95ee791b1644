import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, HashChain, lineHash } from './hash-chain.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const GENESIS = sha256('genesis');

describe('canonicalJson', () => {
  it('writes the example of RFC 8785 section 3.2.2 exactly', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 section 3.2.3 does', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(
      canonicalJson(input)
        .match(/"([^"]*)":/g)
        ?.map((key) => JSON.parse(key.slice(0, -1))),
    ).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('sorts nested objects and leaves out undefined properties', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: { d: undefined, c: 'x' } })).toBe(
      '{"a":{"c":"x"},"b":[{"a":2,"z":1}]}',
    );
  });

  it('refuses values JSON cannot carry rather than writing something else', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(TypeError);
    expect(() => canonicalJson([undefined])).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});

describe('HashChain', () => {
  const build = (records: Record<string, unknown>[]) => {
    const chain = new HashChain(GENESIS);
    return { chain, lines: records.map((record) => JSON.parse(chain.link(record))) };
  };

  it('opens with the genesis and links each line to the hash of the one before', () => {
    const { chain, lines } = build([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(lines.map((line) => line.prev)).toEqual([GENESIS, lines[0].hash, lines[1].hash]);
    expect(chain.head).toBe(lines[2].hash);
    expect(chain.count).toBe(3);
  });

  it('hashes the canonical JSON of the line without its hash, prev included', () => {
    const { lines } = build([{ type: 'A', data: { b: 1, a: [2] } }]);
    const { hash, ...unhashed } = lines[0];
    expect(hash).toBe(sha256(`{"data":{"a":[2],"b":1},"prev":"${GENESIS}","type":"A"}`));
    expect(lineHash(unhashed)).toBe(hash);
  });

  it('writes each line as canonical JSON, so an export is the same bytes every time', () => {
    const text = new HashChain(GENESIS).link({ z: 1, a: { y: 2, b: 3 } });
    expect(text).toBe(canonicalJson(JSON.parse(text)));
    expect(text).toBe(new HashChain(GENESIS).link({ a: { b: 3, y: 2 }, z: 1 }));
  });

  it('gives another hash to every line after a changed one, and another head', () => {
    const original = build([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const changed = build([{ n: 1 }, { n: 20 }, { n: 3 }]);
    expect(changed.lines[0].hash).toBe(original.lines[0].hash);
    expect(changed.lines[1].hash).not.toBe(original.lines[1].hash);
    expect(changed.lines[2].hash).not.toBe(original.lines[2].hash);
    expect(changed.chain.head).not.toBe(original.chain.head);
  });
});
