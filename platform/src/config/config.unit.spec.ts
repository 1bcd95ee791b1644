import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, requireLicenseKeySecret, sellerDetails } from './index.js';

describe('configuration', () => {
  it('runs on embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 5000,
      DATA_DIR: '.data',
      ADMIN_USERNAME: 'admin',
      TRUST_PROXY: false,
      LOW_STOCK_THRESHOLD: 5,
    });
    expect(config.LICENSE_KEY_SECRET).toBeUndefined();
    expect(config.ADMIN_EMAIL).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.EVENTSTORE_CONNECTION_STRING).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', ADMIN_PASSWORD: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('fails with the list of every bad key', () => {
    const failure = (() => {
      try {
        loadConfig({
          PORT: 'eighty',
          DATABASE_URL: 'mysql://x/y',
          SESSION_SECRET: 'short',
          LICENSE_KEY_SECRET: 'short',
          LOW_STOCK_THRESHOLD: '-1',
          ADMIN_EMAIL: 'not an address',
        });
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(ConfigError);
    const keys = (failure as ConfigError).issues.map((issue) => issue.split(':')[0]);
    expect(keys.sort()).toEqual([
      'ADMIN_EMAIL',
      'DATABASE_URL',
      'LICENSE_KEY_SECRET',
      'LOW_STOCK_THRESHOLD',
      'PORT',
      'SESSION_SECRET',
    ]);
  });

  it('requires the license-key secret of a role running on its own', () => {
    expect(() => requireLicenseKeySecret(loadConfig({}))).toThrow(ConfigError);
    const secret = 'k'.repeat(32);
    expect(requireLicenseKeySecret(loadConfig({ LICENSE_KEY_SECRET: secret }))).toBe(secret);
  });

  it('refuses the secret under its earlier name, rather than run without the one the sold keys are sealed with', () => {
    expect(() => loadConfig({ LICENCE_KEY_SECRET: 'k'.repeat(32) })).toThrow(
      'LICENCE_KEY_SECRET: renamed LICENSE_KEY_SECRET: set that instead, to the same value',
    );
  });

  it.each([
    ['1', 1],
    ['true', true],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('reads TRUST_PROXY=%s as %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('takes a metrics token only as a bearer token of 16 characters or more', () => {
    const token = 'mT0k-3n_abc.def~123';
    expect(loadConfig({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: at least 16/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(
      /METRICS_TOKEN: letters/,
    );
  });

  it('takes a PayPal REST base URL override only as an http(s) URL', () => {
    expect(
      loadConfig({ PAYPAL_API_BASE_URL: 'http://127.0.0.1:4010/paypal-sandbox' }).PAYPAL_API_BASE_URL,
    ).toBe('http://127.0.0.1:4010/paypal-sandbox');
    expect(loadConfig({ PAYPAL_API_BASE_URL: '' }).PAYPAL_API_BASE_URL).toBeUndefined();
    expect(() => loadConfig({ PAYPAL_API_BASE_URL: 'ftp://paypal' })).toThrow(ConfigError);
  });

  describe('audit keys', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const spki = publicKey.export({ type: 'spki', format: 'der' });

    it('takes Ed25519 keys as PEM or as base64 DER, one line for an env file', () => {
      const pem = loadConfig({
        AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        AUDIT_VERIFY_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      });
      const der = loadConfig({
        AUDIT_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
        AUDIT_VERIFY_KEY: spki.toString('base64'),
      });
      for (const config of [pem, der]) {
        expect(config.AUDIT_SIGNING_KEY?.equals(privateKey)).toBe(true);
        expect(config.AUDIT_VERIFY_KEY?.export({ type: 'spki', format: 'der' })).toEqual(spki);
      }
      expect(loadConfig({}).AUDIT_SIGNING_KEY).toBeUndefined();
    });

    it('refuses another kind of key or no key at all, naming the variable', () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
      expect(() =>
        loadConfig({
          AUDIT_SIGNING_KEY: 'not a key',
          AUDIT_VERIFY_KEY: rsa.export({ type: 'spki', format: 'pem' }).toString(),
        }),
      ).toThrow(
        /AUDIT_SIGNING_KEY: an Ed25519 private key[\s\S]*AUDIT_VERIFY_KEY: an Ed25519 public key.*a rsa key, not Ed25519/,
      );
    });
  });

  describe('production gates', () => {
    const issuesOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).issues;
      }
    };
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://store.example',
      SELLER_NAME: 'Example Software GmbH',
      SELLER_ADDRESS: 'Hauptstraße 1;10115 Berlin;Germany',
    };

    it('refuses production without PayPal credentials, PUBLIC_URL or the seller, naming the variables', () => {
      const issues = issuesOf({ NODE_ENV: 'production' });
      expect(issues).toHaveLength(4);
      expect(issues[0]).toMatch(/^PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: .*PAYPAL_SIMULATED=1/);
      expect(issues[1]).toMatch(/^PUBLIC_URL: required in production/);
      expect(issues[2]).toMatch(/^SELLER_NAME: required in production: every receipt names the seller/);
      expect(issues[3]).toMatch(/^SELLER_ADDRESS: required in production/);
    });

    it('names the configured seller on receipts, and a demo seller outside production', () => {
      const configured = loadConfig({ ...production, PAYPAL_SIMULATED: '1', SELLER_TAX_ID: 'DE123456789' });
      expect(sellerDetails(configured)).toEqual({
        name: 'Example Software GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
        email: null,
        taxId: 'DE123456789',
      });
      expect(sellerDetails(loadConfig({ SELLER_ADDRESS: 'Line 1\\nLine 2' })).addressLines).toEqual([
        'Line 1',
        'Line 2',
      ]);
      expect(sellerDetails(loadConfig({}))).toMatchObject({
        name: 'LicenseStore Demo Ltd',
        email: 'billing@licensestore.local',
      });
    });

    it('takes real credentials, or PAYPAL_SIMULATED=1, in production', () => {
      const real = loadConfig({ ...production, PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' });
      expect(real.PAYPAL_SIMULATED).toBe(false);
      const simulated = loadConfig({ ...production, PAYPAL_SIMULATED: '1' });
      expect(simulated.PAYPAL_SIMULATED).toBe(true);
    });

    it('simulates payments outside production only while no credentials are set', () => {
      expect(loadConfig({}).PAYPAL_SIMULATED).toBe(true);
      expect(loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }).PAYPAL_SIMULATED).toBe(
        false,
      );
      expect(issuesOf({ PAYPAL_SIMULATED: 'false' })[0]).toMatch(/^PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET:/);
    });

    it('refuses half the credentials, credentials beside PAYPAL_SIMULATED=1, and flags that are not 1/0', () => {
      expect(issuesOf({ PAYPAL_CLIENT_ID: 'id' })[0]).toMatch(/^PAYPAL_CLIENT_SECRET:/);
      expect(
        issuesOf({ PAYPAL_SIMULATED: 'true', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' })[0],
      ).toMatch(/^PAYPAL_SIMULATED:/);
      expect(issuesOf({ SEED_DEMO: 'yes' })[0]).toMatch(/^SEED_DEMO:/);
    });

    it('seeds the demo store in development, or when SEED_DEMO says so', () => {
      expect(loadConfig({}).SEED_DEMO).toBe(true);
      expect(loadConfig({ NODE_ENV: 'test' }).SEED_DEMO).toBe(false);
      expect(loadConfig({ ...production, PAYPAL_SIMULATED: '1' }).SEED_DEMO).toBe(false);
      expect(loadConfig({ ...production, PAYPAL_SIMULATED: '1', SEED_DEMO: '1' }).SEED_DEMO).toBe(true);
      expect(loadConfig({ SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
    });
  });
});
