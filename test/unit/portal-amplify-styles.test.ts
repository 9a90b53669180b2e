/**
 * The portal loads only the Amplify UI stylesheets it uses (`web/src/shared/ui/amplify-ui.css`,
 * docs/portal.md#bundles). This test derives what it uses from Amplify UI's own code, so an upgrade that
 * makes the widget render another primitive fails here instead of showing an unstyled screen:
 *
 * - it walks the ES modules of `@aws-amplify/ui-react` reachable from the `<Authenticator>` and from the
 *   primitives the portal imports itself (every `import … from '@aws-amplify/ui-react'` in `web/src`);
 * - it collects the class names they render (`ComponentClassName.X` and literal `amplify-…` strings);
 * - each class whose rules start a line in one of the package's per-component sheets needs that sheet.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ComponentClassName } from '@aws-amplify/ui';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const UI_REACT = path.join(ROOT, 'node_modules/@aws-amplify/ui-react/dist');
const SHEETS_DIR = path.join(UI_REACT, 'styles');
const PORTAL_SHEET = path.join(ROOT, 'web/src/shared/ui/amplify-ui.css');

/** The sheets `amplify-ui.css` imports, in order (`styles/<name>.css` → `<name>`). */
function importedSheets(): string[] {
  const css = readFileSync(PORTAL_SHEET, 'utf8');
  return [...css.matchAll(/@import\s+'@aws-amplify\/ui-react\/styles\/([A-Za-z_]+)\.css';/g)].map((m) => m[1]!);
}

/** The per-component sheets of the package (not the `.layer.css` variants), name → text. */
function packageSheets(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(SHEETS_DIR)) {
    if (f.endsWith('.css') && !f.endsWith('.layer.css')) out.set(f.slice(0, -4), readFileSync(path.join(SHEETS_DIR, f), 'utf8'));
  }
  return out;
}

/**
 * Every `.mjs` file reachable by relative imports that bind something (`import { X } from`, `export … from`,
 * `import()`) from `starts` (dist/esm only; packages not followed). Bare `import '…'` lines are left by
 * Amplify UI's build for every primitive and are tree-shaken away: following them would reach everything.
 */
function reachable(starts: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (existsSync(target) && target.endsWith('.mjs')) queue.push(target);
    }
  }
  return [...seen];
}

/** The primitives `web/src` imports from `@aws-amplify/ui-react` by name (e.g. Button, Flex, TextField). */
function portalPrimitives(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@aws-amplify\/ui-react'/g)) {
          for (const n of m[1]!.split(',').map((s) => s.trim()).filter(Boolean)) names.add(n);
        }
      }
    }
  };
  walk(path.join(ROOT, 'web/src'));
  return [...names].filter((n) => existsSync(path.join(UI_REACT, 'esm/primitives', n)));
}

/** Base class names (`amplify-button`, no `__element` / `--modifier`) rendered by `files`. */
function renderedClasses(files: string[]): Set<string> {
  const map = ComponentClassName as Record<string, string>;
  const out = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/ComponentClassName\.([A-Za-z]+)/g)) if (map[m[1]!]) out.add(map[m[1]!]!);
    for (const m of text.matchAll(/['"`](amplify-[a-z0-9-]+)/g)) out.add(m[1]!.split('__')[0]!.split('--')[0]!);
  }
  return out;
}

/** The sheets whose rules start with `.<cls>` (a selector at the start of a line), for each rendered class. */
function requiredSheets(classes: Set<string>, sheets: Map<string, string>): Map<string, string[]> {
  const need = new Map<string, string[]>();
  for (const cls of classes) {
    const re = new RegExp(`^\\.${cls.replace(/[-]/g, '\\-')}(?![a-z0-9_-])`, 'm');
    for (const [name, text] of sheets) {
      if (name === 'base' || !re.test(text)) continue;
      need.set(name, [...(need.get(name) ?? []), cls]);
    }
  }
  return need;
}

describe("the portal's Amplify UI stylesheets (web/src/shared/ui/amplify-ui.css)", () => {
  const sheets = packageSheets();
  const imported = importedSheets();
  const authenticator = readdirSync(path.join(UI_REACT, 'esm/components/Authenticator'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => path.join(UI_REACT, 'esm/components/Authenticator', f));
  const primitives = portalPrimitives().flatMap((n) =>
    readdirSync(path.join(UI_REACT, 'esm/primitives', n)).filter((f) => f.endsWith('.mjs')).map((f) => path.join(UI_REACT, 'esm/primitives', n, f)),
  );
  const classes = renderedClasses(reachable([...authenticator, ...primitives]));

  it('walks the widget: the Authenticator and the portal-imported primitives render the expected classes', () => {
    expect(authenticator.length).toBeGreaterThan(10);
    expect(portalPrimitives()).toEqual(expect.arrayContaining(['Button', 'Flex', 'TextField']));
    for (const cls of ['amplify-authenticator', 'amplify-button', 'amplify-input', 'amplify-tabs', 'amplify-alert']) expect(classes).toContain(cls);
  });

  it('imports every sheet a rendered class needs', () => {
    const missing = [...requiredSheets(classes, sheets)].filter(([name]) => !imported.includes(name)).map(([name, cls]) => `${name}.css (${cls.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it("starts with the theme's tokens and reset, and keeps styles.css's order (same cascade)", () => {
    expect(imported.slice(0, 2)).toEqual(['base', 'reset']);
    for (const name of imported) expect(sheets.has(name), `${name}.css exists in the package`).toBe(true);
    const all = readFileSync(path.join(UI_REACT, 'styles.css'), 'utf8');
    const position = (name: string) => {
      const firstRule = sheets.get(name)!.split('\n').find((l) => l.trim() && !/^\s*(\/\*|\*)/.test(l))!;
      return all.indexOf(firstRule);
    };
    const positions = imported.filter((n) => sheets.get(n)!.trim()).map((n) => [n, position(n)] as const);
    for (const [name, at] of positions) expect(at, `${name}.css is part of styles.css`).toBeGreaterThanOrEqual(0);
    expect(positions.map(([n]) => n)).toEqual([...positions].sort((a, b) => a[1] - b[1]).map(([n]) => n));
  });

  it('leaves out sheets the portal never renders (the point of the subset)', () => {
    const unused = [...sheets.keys()].filter((n) => !imported.includes(n));
    expect(unused).toEqual(expect.arrayContaining(['StorageBrowser', 'liveness', 'table', 'sliderField']));
  });
});
