/** The logging surface every role uses: pino's `(fields, message)` signature, so a pino logger fits. */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LEVELS)[number];

const serialise = (fields: object) =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) =>
      value instanceof Error
        ? [key, { name: value.name, message: value.message, stack: value.stack }]
        : [key, value],
    ),
  );

/** One JSON object per line on stdout (what the supervisor and the tests read). */
export function jsonLogger(base: object = {}, minimum: LogLevel = 'info'): Logger {
  const threshold = LEVELS.indexOf(minimum);
  const write = (level: LogLevel) => (fields: object, message: string) => {
    if (LEVELS.indexOf(level) < threshold) return;
    process.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...base, ...serialise(fields) })}\n`,
    );
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
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
