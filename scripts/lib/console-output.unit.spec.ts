import { describe, expect, it } from 'vitest';
import { consoleOutput } from './console-output.js';

const terminal = (isTTY: boolean) => {
  const written: string[] = [];
  const stream = { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  return { written, out: consoleOutput(stream) };
};
const line =
  'api            | {"level":"warn","time":"2026-11-26T21:10:07.542Z","role":"api","orderId":"o-1","msg":"slow capture"}';

describe('consoleOutput', () => {
  it('prints a role’s JSON line for a person at a terminal, label kept', () => {
    const { written, out } = terminal(true);
    out(line);
    const shown = written.join('');
    expect(shown.startsWith('api            | ')).toBe(true);
    expect(shown).toContain('WARN');
    expect(shown).toContain('slow capture');
    expect(shown).toContain('"orderId":"o-1"');
    expect(shown).not.toContain('"msg"');
  });

  it('passes lines through unchanged when piped, and plain lines always', () => {
    const piped = terminal(false);
    piped.out(line);
    expect(piped.written).toEqual([`${line}\n`]);
    const atTerminal = terminal(true);
    atTerminal.out('start          | License store running at http://localhost:5000');
    expect(atTerminal.written).toEqual(['start          | License store running at http://localhost:5000\n']);
  });
});
