// The dependency table between the workspaces is enforced by Biome's noRestrictedImports (biome.json, and
// web/biome.json for the browser), which `npm run lint` runs. These cases hold the rule to the table: each writes one
// import into a scratch copy of the configuration at a workspace's path and reads what Biome says about it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyConfig, lint } from './scratch-biome.js';

const CLIMBS = 'reaches into another folder of the repository by a relative path';

/** [where the import is written, what it imports, the start of Biome's message or null when it is allowed]. */
const cases: Array<[file: string, imports: string, refusal: string | null]> = [
  ['domain/src/probe.ts', '@licensestore/platform/db', 'the domain runs in the browser as well as in Node'],
  ['domain/src/probe.ts', 'node:crypto', 'the domain runs in the browser as well as in Node'],
  ['domain/src/probe.ts', 'pg', 'the domain runs in the browser as well as in Node'],
  ['domain/src/probe.ts', 'zod', null],
  ['domain/src/probe.ts', '../orders/index.js', null],
  ['platform/src/probe.ts', '@licensestore/projections', 'the platform imports only the domain of ours'],
  ['platform/src/probe.ts', '@licensestore/domain/events', null],
  ['platform/src/probe.ts', 'pg', null],
  [
    'services/api/src/probe.ts',
    '@licensestore/projections',
    'the api imports only the domain and the platform',
  ],
  ['services/api/src/probe.ts', '@licensestore/workers', 'the api imports only the domain and the platform'],
  ['services/api/src/probe.ts', '@licensestore/platform/readmodel', null],
  ['services/api/src/probe.ts', '@licensestore/paypal-sandbox/credentials', null],
  ['services/api/src/probe.ts', '../../../projections/src/index.js', CLIMBS],
  ['services/paypal-sandbox/src/probe.ts', '@licensestore/api', 'the PayPal emulator imports only'],
  ['projections/src/probe.ts', '@licensestore/workers', 'the projections role imports only'],
  ['projections/src/probe.ts', '../../services/api/src/app.js', CLIMBS],
  ['workers/src/probe.ts', '@licensestore/projections/audit/verify', 'the workers role imports only'],
  ['workers/src/probe.ts', '../../projections/src/audit/verify.js', CLIMBS],
  ['workers/src/probe.ts', './jobs/host.js', null],
  ['web/src/probe.ts', '@licensestore/platform/db', 'the browser imports only the browser-safe domain'],
  [
    'web/src/probe.ts',
    '@licensestore/platform/eventstore',
    'the browser imports only the browser-safe domain',
  ],
  ['web/src/probe.ts', '@licensestore/domain/money/display', null],
  ['web/src/probe.ts', '../../platform/src/config/index.js', CLIMBS],
  ['web/src/probe.ts', '@licensestore/domain/orders', null],
  ['web/src/probe.ts', '@licensestore/contract/orders', null],
  ['services/api/src/probe.ts', '@licensestore/contract/refunds', null],
  ['contract/src/probe.ts', 'zod', null],
  ['contract/src/probe.ts', '@licensestore/domain/text', null],
  ['contract/src/probe.ts', './view-shape.js', null],
  ['contract/src/probe.ts', '@licensestore/platform/db', 'the contract runs in the browser'],
  ['contract/src/probe.ts', 'express', 'the contract runs in the browser'],
  ['contract/src/probe.ts', '../../services/api/src/app.js', 'reaches outside the contract'],
  // A test assembles the roles as a deployment does.
  ['services/api/test/probe.int.spec.ts', '../../../projections/src/index.js', null],
  ['workers/src/probe.int.spec.ts', '@licensestore/projections', null],
];

describe('The import rules', () => {
  let scratch: string;
  const found = new Map<string, string[]>();
  const fileOf = (index: number, file: string) => file.replace(/probe/, `probe-${index}`);

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'import-rules-'));
    await copyConfig('biome.json', join(scratch, 'biome.json'));
    await copyConfig('web/biome.json', join(scratch, 'web/biome.json'));
    await Promise.all(
      cases.map(async ([file, imports], index) => {
        const path = join(scratch, fileOf(index, file));
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, `import { probe } from '${imports}';\n\nexport const used = probe;\n`);
      }),
    );
    for (const diagnostic of await lint(scratch, 'style/noRestrictedImports')) {
      expect(diagnostic.category).toBe('lint/style/noRestrictedImports');
      found.set(diagnostic.location.path, [
        ...(found.get(diagnostic.location.path) ?? []),
        diagnostic.message,
      ]);
    }
  });
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it.each(
    cases.map(([file, imports, refusal], index) => ({
      file,
      imports,
      refusal,
      index,
      says: refusal ?? 'allowed',
    })),
  )('in $file, import $imports: $says', ({ file, imports, refusal, index }) => {
    const messages = found.get(fileOf(index, file)) ?? [];
    if (refusal === null) expect(messages, `${file} may import ${imports}`).toEqual([]);
    else {
      expect(messages).toHaveLength(1);
      expect(messages[0]?.startsWith(refusal), `${messages[0]} says: ${refusal}`).toBe(true);
    }
  });
});
