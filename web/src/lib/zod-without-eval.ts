// Every `import … from 'zod'` of the web client (its own, contract's, shared's) resolves here (vite.config.ts's
// alias), so zod is told before any of its parsers exist. zod compiles its object parsers with new Function() unless
// told not to, and probes for it on first use; the store's Content-Security-Policy forbids eval, so the probe alone
// is reported as a violation. As an alias, zod comes only with the chunks that use it: none of the storefront's
// public pages does, so their first download has none.
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
