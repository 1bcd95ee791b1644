/** The few logging calls the workers role makes; any structured logger can be adapted to it. */
export interface Logger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const line = (level: string, message: string, details?: Record<string, unknown>) =>
  JSON.stringify({ time: new Date().toISOString(), level, role: 'workers', message, ...details });

/** One JSON object per line on stdout/stderr, which every log collector can read. */
export const jsonLogger: Logger = {
  info: (message, details) => console.log(line('info', message, details)),
  warn: (message, details) => console.warn(line('warn', message, details)),
  error: (message, details) => console.error(line('error', message, details)),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export const errorDetails = (error: unknown) =>
  error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
