import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { jsonLogger } from '@licensestore/platform/logging';
import express from 'express';
import { z } from 'zod';
import { createPaypalSandbox, type PaypalSandbox, type PaypalSandboxOptions } from './sandbox.js';

export const MOUNT_PATH = '/paypal-sandbox';

export interface StartPaypalSandboxOptions extends PaypalSandboxOptions {
  /** 0 picks a free port. */
  port?: number;
  /** Defaults to every interface. */
  host?: string;
}

export interface RunningPaypalSandbox {
  /** Origin of the server, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Where the emulator is mounted: `${url}/paypal-sandbox` (REST base, and `${baseUrl}/sdk/js`). */
  baseUrl: string;
  sandbox: PaypalSandbox;
  stop: () => Promise<void>;
}

/** The emulator on a port of its own, mounted at /paypal-sandbox like inside the app. */
export async function startPaypalSandbox(
  options: StartPaypalSandboxOptions = {},
): Promise<RunningPaypalSandbox> {
  const sandbox = createPaypalSandbox(options);
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(MOUNT_PATH, sandbox.router);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: options.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host =
    !options.host || options.host === '::' || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    baseUrl: `${url}${MOUNT_PATH}`,
    sandbox,
    stop: async () => {
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8790),
  HOST: z.string().optional(),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  PAYPAL_SANDBOX_WEBHOOK_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});

async function main() {
  const parsed = environment.safeParse(process.env);
  if (!parsed.success) {
    console.error(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'));
    process.exit(1);
  }
  const env = parsed.data;
  const logger = jsonLogger({ role: 'paypal-sandbox' }, env.LOG_LEVEL);
  const running = await startPaypalSandbox({
    port: env.PORT,
    host: env.HOST,
    clientId: env.PAYPAL_CLIENT_ID,
    clientSecret: env.PAYPAL_CLIENT_SECRET,
    webhookId: env.PAYPAL_WEBHOOK_ID,
    webhookUrl: env.PAYPAL_SANDBOX_WEBHOOK_URL,
    logger,
  });
  logger.info(
    {
      url: running.baseUrl,
      sdk: `${running.baseUrl}/sdk/js`,
      webhookUrl: env.PAYPAL_SANDBOX_WEBHOOK_URL ?? null,
    },
    'paypal sandbox listening',
  );
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'stopping');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
