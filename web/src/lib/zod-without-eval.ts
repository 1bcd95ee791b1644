import { z } from 'zod';

// zod compiles its object parsers with new Function() unless told not to, and probes for it on first use; the
// store's Content-Security-Policy forbids eval, so the probe alone is reported as a violation. Imported before
// anything that parses, so every parse in the browser takes zod's eval-free path.
z.config({ jitless: true });
