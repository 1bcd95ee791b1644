import pino, { type DestinationStream } from 'pino';

/** The logging surface every role uses: pino's `(fields, message)` signature. */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LEVELS)[number];

/** Fields that carry a secret wherever they sit (top level or one object down): logged as "[redacted]". */
const SECRET_FIELDS = [
  'password',
  'token',
  'authorization',
  'cookie',
  'secret',
  'licenseKey',
  'licenseKey',
  'keyText',
];
const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]);

/**
 * One JSON object per line on stdout (what the supervisor and the tests read): `time` (ISO 8601), `level` by name,
 * `msg`, the role's `base` fields, then the call's own. pino writes synchronously to the file descriptor, so a line
 * logged before a crash is not lost in a buffer; its serialiser survives what JSON.stringify throws on (a BigInt, a
 * circular value), and an Error under `err` or `error` keeps its message and stack.
 */
export function jsonLogger(
  base: object = {},
  minimum: LogLevel = 'info',
  destination: DestinationStream = pino.destination(1),
): Logger {
  return pino(
    {
      level: minimum,
      base,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface LogEntry {
  level: LogLevel;
  fields: object;
  message: string;
}

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const record = (level: LogLevel) => (fields: object, message: string) => {
    entries.push({ level, fields, message });
  };
  return {
    entries,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}
