/**
 * Every `msg('key', { … })` / `t('key', { … })` call with a literal key gives exactly the values its text
 * interpolates, in both languages (docs/portal.md#messages). i18next's types do not check interpolation
 * values, and a missing one renders as `{{name}}` on screen; a value no text uses is a stale name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from './index';

const WEB_SRC = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path.endsWith(join('lib', 'messages')) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** The text of `key` in a catalogue, or its plural forms' texts (`key_one`, `key_other`). */
function textsOf(catalogue: object, key: string): string[] {
  const at = (k: string) => k.split('.').reduce<unknown>((o, part) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[part] : undefined), catalogue);
  const exact = at(key);
  if (typeof exact === 'string') return [exact];
  return ['_one', '_other'].map((s) => at(key + s)).filter((v): v is string => typeof v === 'string');
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!);

interface Finding {
  file: string;
  key: string;
  problem: string;
}

/** Checks the literal-key calls of `msg`/`t` in `source` against both catalogues. */
function check(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['msg', 't'].includes(node.expression.text) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const key = node.arguments[0].text;
      const texts = Object.values(CATALOGUES).flatMap((c) => textsOf(c, key));
      if (texts.length > 0) {
        const wanted = new Set(texts.flatMap(placeholders));
        const values = node.arguments[1];
        let given: Set<string> | null = new Set();
        if (values && ts.isObjectLiteralExpression(values)) {
          for (const p of values.properties) {
            if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) given.add(p.name.text);
            else given = null; // a spread or computed name: not checkable here
            if (!given) break;
          }
        } else if (values) given = null;
        if (given) {
          const plural = textsOf(CATALOGUES.es, key).length > 1;
          for (const w of wanted) if (!given.has(w) && !(plural && w === 'count')) findings.push({ file, key, problem: `missing {{${w}}}` });
          for (const g of given) if (!wanted.has(g) && !(plural && g === 'count') && !['defaultValue', 'lng'].includes(g)) findings.push({ file, key, problem: `unused value ${g}` });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

describe('interpolation values match the catalogue (docs/portal.md#messages)', () => {
  it('finds a missing and an unused value (so the check below can fail)', () => {
    const sample = "msg('incidents.detail.pageTitle'); t('incidents.detail.pageTitle', { id: 'x', extra: 1 });";
    expect(check('sample.ts', sample).map((f) => f.problem)).toEqual(['missing {{id}}', 'unused value extra']);
  });

  it('every literal-key call under web/src gives exactly the values its texts use', () => {
    const findings = sourceFiles(WEB_SRC).flatMap((f) => check(relative(WEB_SRC, f), readFileSync(f, 'utf8')));
    expect(findings.map((f) => `${f.file}: ${f.key}: ${f.problem}`)).toEqual([]);
  }, 30_000); // parses every source file: seconds on a loaded machine
});
