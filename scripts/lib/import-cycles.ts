/**
 * Import cycles between the repository's TypeScript modules, found with madge (the same check as
 * `npx madge --circular --extensions ts,tsx --ts-config tsconfig.json <folders>`; `import type` and
 * dynamic `import()` count too, so a cycle hidden behind either is still reported).
 *
 *  - `findImportCycles(paths, { root })` → the cycles, each a list of files relative to `root`, the
 *    importing module first (empty when there is none).
 *  - Run alone (`npm run check:cycles`): prints each cycle and exits 1 when there is one, 0 otherwise.
 *
 * Errors: rejects with madge's error when a path does not exist.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (absolute). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folders `npm run check:cycles` checks, relative to the repository root. */
export const CHECKED_FOLDERS = ['lambdas', 'scripts', 'infra', 'bin', 'web/src', 'test'] as const;

/** The part of madge's result this module uses (madge ships no type declarations). */
interface MadgeResult {
  circular(): string[][];
}
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;

/**
 * The import cycles among `paths` (files or folders, relative to `root`).
 * @param options.root folder the paths and the returned file names are relative to (default: the repository).
 * @param options.tsConfig tsconfig used to resolve `.js` specifiers to `.ts` sources (default `<root>/tsconfig.json`).
 */
export async function findImportCycles(
  paths: readonly string[],
  options: { root?: string; tsConfig?: string } = {},
): Promise<string[][]> {
  const root = options.root ?? ROOT;
  const madge = createRequire(import.meta.url)('madge') as Madge;
  const result = await madge(
    paths.map((p) => path.resolve(root, p)),
    {
      baseDir: root,
      fileExtensions: ['ts', 'tsx'],
      tsConfig: options.tsConfig ?? path.join(root, 'tsconfig.json'),
      excludeRegExp: [/node_modules/, /\.d\.ts$/],
    },
  );
  return result.circular();
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const cycles = await findImportCycles(CHECKED_FOLDERS);
  if (cycles.length === 0) {
    console.log(`no import cycle in ${CHECKED_FOLDERS.join(', ')}`);
  } else {
    console.error(`${cycles.length} import cycle(s):`);
    for (const c of cycles) console.error(`  ${[...c, c[0]].join(' → ')}`);
    process.exitCode = 1;
  }
}
