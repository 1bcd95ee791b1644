import { describe, expect, it } from 'vitest';
import { jsonLogger, type LogLevel } from './index.js';

/** The lines a logger writes, parsed. */
function capture(base: object = {}, minimum: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = jsonLogger(base, minimum, { write: (chunk: string) => void lines.push(chunk) });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

describe('jsonLogger', () => {
  it('writes one JSON line with time, level by name, message, the role and the fields', () => {
    const { logger, lines, parsed } = capture({ role: 'api' });
    logger.info({ orderId: 'o-1' }, 'order placed');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    const [line] = parsed();
    expect(line).toMatchObject({ level: 'info', msg: 'order placed', role: 'api', orderId: 'o-1' });
    expect(new Date(line?.time as string).toISOString()).toBe(line?.time);
    expect(line).not.toHaveProperty('pid');
    expect(line).not.toHaveProperty('hostname');
  });

  it('leaves out levels below the minimum', () => {
    const { logger, parsed } = capture({}, 'warn');
    logger.debug({}, 'd');
    logger.info({}, 'i');
    logger.warn({}, 'w');
    logger.error({}, 'e');
    expect(parsed().map((line) => line.level)).toEqual(['warn', 'error']);
  });

  it('logs a BigInt and a circular value instead of throwing', () => {
    const { logger, parsed } = capture();
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    expect(() => logger.info({ position: 12n, circular }, 'odd values')).not.toThrow();
    const [line] = parsed();
    expect(line?.position).toBe(12);
    expect(line?.circular).toMatchObject({ name: 'loop' });
    expect(JSON.stringify(line?.circular)).toContain('"[Circular]"');
  });

  it('keeps the message and stack of an error under err or error', () => {
    const { logger, parsed } = capture();
    logger.error({ err: new Error('boom'), error: new TypeError('bad') }, 'failed');
    const [line] = parsed();
    expect(line?.err).toMatchObject({ type: 'Error', message: 'boom' });
    expect(String((line?.err as { stack?: string } | undefined)?.stack)).toContain('boom');
    expect(line?.error).toMatchObject({ type: 'TypeError', message: 'bad' });
  });

  it('redacts secrets at the top level and one object down', () => {
    const { logger, lines } = capture();
    logger.warn(
      { password: 'hunter2', headers: { authorization: 'Bearer abc', cookie: 'sid=s3cret' }, token: 't0k' },
      'sign-in',
    );
    expect(lines[0]).not.toMatch(/hunter2|Bearer abc|s3cret|t0k/);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      password: '[redacted]',
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
    });
  });
});
