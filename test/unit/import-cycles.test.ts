/** No import cycle in the repository (madge, in process), and the check does see one when there is. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKED_FOLDERS, findImportCycles } from '../../scripts/lib/import-cycles.js';

describe('import cycles', () => {
  it('finds a cycle made through a .js specifier and a dynamic import()', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigia-cycles-'));
    try {
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
      writeFileSync(path.join(dir, 'stack.ts'), "import { region } from './seed.js';\nexport const stage = `local-${region}`;\n");
      writeFileSync(path.join(dir, 'seed.ts'), "export const region = 'us-east-1';\nexport async function main() { return (await import('./stack.js')).stage; }\n");
      writeFileSync(path.join(dir, 'alone.ts'), "import { region } from './seed.js';\nexport const r = region;\n");
      const cycles = await findImportCycles(['.'], { root: dir });
      expect(cycles.map((c) => [...c].sort())).toEqual([['seed.ts', 'stack.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`none in ${CHECKED_FOLDERS.join(', ')}`, async () => {
    expect(await findImportCycles(CHECKED_FOLDERS)).toEqual([]);
  }, 60_000);
});
