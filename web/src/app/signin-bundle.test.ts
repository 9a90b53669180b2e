/**
 * The sign-in page's module graph keeps the message catalogue out (docs/portal.md#messages, #bundles): from
 * the entry (`main.tsx`) through every STATIC import of the portal's own files, no module imports i18next,
 * react-i18next or `shared/lib/messages`. The signed-in chunk reaches them through `import()` (lazy), which
 * this walk does not follow, as the bundler splits there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB_SRC = join(__dirname, '..');

/** The static import specifiers of a file (`import … from 'x'`, `export … from 'x'`), not `import()`. */
function staticImports(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((s) =>
    (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && !(ts.isImportDeclaration(s) && s.importClause?.isTypeOnly)
      ? [s.moduleSpecifier.text]
      : [],
  );
}

function resolveLocal(from: string, spec: string): string | null {
  const base = join(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.(tsx?)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every portal file statically reachable from `entry`, with the packages each one imports. */
function signInGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const specs = staticImports(file);
    graph.set(file, specs);
    for (const spec of specs) {
      if (!spec.startsWith('.')) continue;
      const local = resolveLocal(file, spec);
      if (local) queue.push(local);
    }
  }
  return graph;
}

describe('sign-in bundle', () => {
  const graph = signInGraph(join(WEB_SRC, 'main.tsx'));
  const files = [...graph.keys()].map((f) => relative(WEB_SRC, f).split('\\').join('/'));

  it('walks the real entry (the sign-in gate and its start-up are in the graph)', () => {
    expect(files).toEqual(expect.arrayContaining(['main.tsx', 'app/bootstrap.tsx', 'app/AuthGate.tsx', 'shared/lib/i18n.ts']));
    expect(files).not.toContain('app/SignedInApp.tsx');
    // The company sign-in form is a lazy chunk, loaded only on stages with a customer identity provider.
    expect(files).not.toContain('app/CompanySignIn.tsx');
  });

  it('no statically imported module loads i18next, react-i18next or the portal catalogue', () => {
    const offending = [...graph].flatMap(([file, specs]) =>
      specs.filter((s) => /^(i18next|react-i18next)$/.test(s) || /shared\/lib\/messages|(^|\/)messages$/.test(s)).map((s) => `${relative(WEB_SRC, file)} → ${s}`),
    );
    expect(files.filter((f) => f.startsWith('shared/lib/messages'))).toEqual([]);
    expect(offending).toEqual([]);
  });
});
