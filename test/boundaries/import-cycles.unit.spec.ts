// No module may import, however indirectly, one that imports it back: Biome's noImportCycles (biome.json), which
// `npm run lint` runs. These cases write small trees into a scratch copy of the configuration and read what it says.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyConfig, lint } from './scratch-biome.js';

/** [what the tree is, its files and their text, the files Biome reports]. */
const cases: Array<[tree: string, files: Record<string, string>, reported: string[]]> = [
  [
    'two modules importing values from each other',
    {
      'domain/src/a.ts': "import { b } from './b.js';\n\nexport const a = () => b();\n",
      'domain/src/b.ts': "import { a } from './a.js';\n\nexport const b = () => a;\n",
    },
    ['domain/src/a.ts', 'domain/src/b.ts'],
  ],
  [
    'a cycle through three modules',
    {
      'workers/src/a.ts': "import { b } from './b.js';\n\nexport const a = () => b;\n",
      'workers/src/b.ts': "import { c } from './c.js';\n\nexport const b = () => c;\n",
      'workers/src/c.ts': "import { a } from './a.js';\n\nexport const c = () => a;\n",
    },
    ['workers/src/a.ts', 'workers/src/b.ts', 'workers/src/c.ts'],
  ],
  [
    'a type imported back by a barrel that re-exports its importer',
    {
      'platform/src/config/index.ts':
        "export * from './store.js';\n\nexport type Config = { port: number };\n",
      'platform/src/config/store.ts':
        "import type { Config } from './index.js';\n\nexport const port = (config: Config) => config.port;\n",
    },
    ['platform/src/config/index.ts', 'platform/src/config/store.ts'],
  ],
  [
    'a test and the support file it imports',
    {
      'projections/test/a.int.spec.ts': "import { b } from './b.js';\n\nexport const a = () => b;\n",
      'projections/test/b.ts': "import { a } from './a.int.spec.js';\n\nexport const b = () => a;\n",
    },
    ['projections/test/a.int.spec.ts', 'projections/test/b.ts'],
  ],
  [
    'imports that go one way',
    {
      'services/api/src/a.ts': "import { b } from './b.js';\n\nexport const a = () => b;\n",
      'services/api/src/b.ts': "import type { C } from './c.js';\n\nexport const b = (c: C) => c;\n",
      'services/api/src/c.ts': 'export type C = number;\n',
    },
    [],
  ],
];

describe('Import cycles', () => {
  let scratch: string;
  const reported = new Map<number, string[]>();

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'import-cycles-'));
    await Promise.all(
      cases.map(async ([, files], index) => {
        const tree = join(scratch, String(index));
        await copyConfig('biome.json', join(tree, 'biome.json'));
        for (const [file, text] of Object.entries(files)) {
          await mkdir(dirname(join(tree, file)), { recursive: true });
          await writeFile(join(tree, file), text);
        }
      }),
    );
    await Promise.all(
      cases.map(async (_, index) => {
        const diagnostics = await lint(join(scratch, String(index)), 'suspicious/noImportCycles');
        for (const diagnostic of diagnostics)
          expect(diagnostic.category).toBe('lint/suspicious/noImportCycles');
        reported.set(index, [...new Set(diagnostics.map((diagnostic) => diagnostic.location.path))].sort());
      }),
    );
  });
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it.each(
    cases.map(([tree, , files], index) => ({
      tree,
      files,
      index,
      says: files.length ? 'refused' : 'allowed',
    })),
  )('$tree: $says', ({ files, index }) => {
    expect(reported.get(index)).toEqual(files);
  });
});
