/**
 * Fails on user-visible literals in the portal's code (docs/portal.md#messages; the rules are in
 * `no-literals-core.ts`). Every `.ts`/`.tsx` file under `web/src` is scanned except the `EXCLUDED` ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXCLUDED, findLiterals, readsAsSpanish } from './no-literals-core';

const WEB_SRC = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('no user-visible literals outside the message catalogue (docs/portal.md#messages)', () => {
  it('finds the kinds of literal it is meant to find (so the check below can fail)', () => {
    const sample = [
      "const COLUMNS = [{ header: 'Estado' }];",
      "export function P() {",
      "  const empty = 'No hay registros';",
      "  return <section aria-label=\"Filtros\" className=\"card\"><h1>Incidentes</h1>{'Cargando'}<Link to=\"/x\">{t('menu.view')}</Link></section>;",
      "}",
      "console.error('[vigia] no hay config');",
      "import { x } from './ñandú';",
      "const label = I18n.get('Account awaiting approval');",
      "const cell = <td data-label=\"Estado\" data-testid=\"x\">{sortHeader('name', 'Alarmas abiertas')}</td>;",
      "const head = <PageHeader title={`Cliente: ${name}`} />;",
      "if (e.key === 'Escape') close();",
      "export const ISSUER = 'Vigía'; // literal-ok: a name, not a UI text",
    ].join('\n');
    expect(findLiterals('sample.tsx', sample).map((f) => `${f.kind}:${f.text}`)).toEqual([
      "user-facing-property:header: 'Estado'",
      'spanish-string:No hay registros',
      'jsx-attribute:aria-label="Filtros"',
      'jsx-text:Incidentes',
      'jsx-text:Cargando',
      'jsx-attribute:data-label="Estado"',
      'spanish-string:Alarmas abiertas',
      'jsx-attribute:title="Cliente: "',
    ]);
    expect(readsAsSpanish('Sin datos')).toBe(true);
    // Labels with an acronym (they slipped through as history and audit action names).
    expect(readsAsSpanish('Vence SLA')).toBe(true);
    expect(readsAsSpanish('Acceso SOC concedido')).toBe(true);
    expect(findLiterals('sample.ts', "const L = { slaDueAt: 'Vence SLA' };").map((f) => f.kind)).toEqual(['spanish-string']);
    expect(readsAsSpanish('Content-Type')).toBe(false);
    expect(readsAsSpanish('no-store')).toBe(false);
    expect(readsAsSpanish('ApiError')).toBe(false);
  });

  it('the portal code has none: every text is in the catalogue', () => {
    const findings = sourceFiles(WEB_SRC).flatMap((path) => {
      const rel = relative(WEB_SRC, path).split('\\').join('/');
      if (EXCLUDED.some((re) => re.test(rel))) return [];
      return findLiterals(rel, readFileSync(path, 'utf8')).map((f) => `${rel}:${f.line} ${f.kind} ${f.text}`);
    });
    expect(findings.length, `literals to move into the catalogue:\n${findings.join('\n')}`).toBe(0);
  }, 30_000); // parses every source file: seconds on a loaded machine
});
