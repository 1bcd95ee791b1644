import type { Config } from '@licensestore/platform/config';
import { ConfigError } from '@licensestore/platform/config';
import { PAYPAL_HOSTS } from './client.js';

/** Where the in-process PayPal emulator is mounted on the app's own origin. */
export const SANDBOX_MOUNT = '/paypal-sandbox';

/** The credentials and webhook id of the emulator simulated payments go to (see services/paypal-sandbox). */
export interface SandboxCredentials {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

export interface PaymentsSetup {
  /** True when payments go to an emulator, not to PayPal (the web client shows a banner). */
  simulated: boolean;
  /** True when this app mounts the emulator at SANDBOX_MOUNT itself (simulated, and no other emulator named). */
  embeddedSandbox: boolean;
  clientId: string;
  clientSecret: string;
  /** Where the server's REST calls go; a function when it is the app's own origin (known once it listens). */
  apiBaseUrl: string | (() => string);
  /** The id webhooks are verified against; undefined refuses every webhook (503, logged). */
  webhookId: string | undefined;
  /** What the browser loads the SDK from (`@paypal/paypal-js` `sdkBaseUrl`). */
  sdkBaseUrl: string;
}

const PAYPAL_SDK = 'https://www.paypal.com/sdk/js';

const isPaypalHost = (url: string) => /(^|\.)paypal\.com$/.test(new URL(url).hostname);

/** Payments are simulated and no other emulator is named: the app mounts one at SANDBOX_MOUNT and pays through it. */
export const mountsSandbox = (config: Config, apiBaseUrl?: string): boolean =>
  config.PAYPAL_SIMULATED && (apiBaseUrl ?? config.PAYPAL_API_BASE_URL) === undefined;

/**
 * Real PayPal unless the configuration says payments are simulated (PAYPAL_SIMULATED, resolved by the config: never
 * implicitly in production): the sandbox or live host, or PAYPAL_API_BASE_URL. Simulated: the emulator mounted in
 * this app, reached through `selfUrl` (the app's own loopback address) unless `apiBaseUrl` points elsewhere, e.g. a
 * standalone emulator in tests, with `sandbox`'s credentials.
 */
export function paymentsSetup(
  config: Config,
  sandbox: SandboxCredentials,
  options: { selfUrl?: () => string | undefined; apiBaseUrl?: string } = {},
): PaymentsSetup {
  const override = options.apiBaseUrl ?? config.PAYPAL_API_BASE_URL;
  if (!config.PAYPAL_SIMULATED) {
    if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET) {
      throw new ConfigError(['PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: required unless PAYPAL_SIMULATED=1']);
    }
    const apiBaseUrl = override ?? PAYPAL_HOSTS[config.PAYPAL_ENV];
    const simulated = !isPaypalHost(apiBaseUrl);
    return {
      simulated,
      embeddedSandbox: false,
      clientId: config.PAYPAL_CLIENT_ID,
      clientSecret: config.PAYPAL_CLIENT_SECRET,
      apiBaseUrl,
      webhookId: config.PAYPAL_WEBHOOK_ID,
      sdkBaseUrl: simulated ? `${apiBaseUrl.replace(/\/+$/, '')}/sdk/js` : PAYPAL_SDK,
    };
  }
  const selfUrl = options.selfUrl;
  const apiBaseUrl =
    override ??
    (() => {
      const origin = selfUrl?.();
      if (!origin)
        throw new Error('the PayPal emulator is reached through the app URL, which is not known yet');
      return `${origin.replace(/\/+$/, '')}${SANDBOX_MOUNT}`;
    });
  return {
    simulated: true,
    embeddedSandbox: mountsSandbox(config, options.apiBaseUrl),
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    apiBaseUrl,
    webhookId: config.PAYPAL_WEBHOOK_ID ?? sandbox.webhookId,
    sdkBaseUrl: override === undefined ? `${SANDBOX_MOUNT}/sdk/js` : `${override.replace(/\/+$/, '')}/sdk/js`,
  };
}
