/**
 * The portal build's Amplify UI dictionaries (`web/build/amplify-languages.ts`, docs/portal.md#bundles): the
 * replacement of `@aws-amplify/ui`'s dictionaries module keeps Spanish, English and the default texts from
 * Amplify UI's own files and exports every other language the real module exports, empty.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DICTIONARIES_MODULE, onlyPortalLanguages, onlyPortalLanguagesSource } from '../../web/build/amplify-languages.js';

const UI_ROOT = path.dirname(createRequire(import.meta.url).resolve('@aws-amplify/ui/package.json'));
const REAL = path.join(UI_ROOT, 'dist/esm/i18n/dictionaries/index.mjs');
const exportsOf = (src: string) => [...src.matchAll(/export const (\w+)/g)].map((m) => m[1]);

describe('only the portal languages of Amplify UI', () => {
  const original = readFileSync(REAL, 'utf8');
  const source = onlyPortalLanguagesSource(original);

  it('exports every name the real dictionaries module exports', () => {
    const real = /export\s*\{([^}]*)\}/.exec(original)![1]!.split(',').map((s) => s.trim()).filter(Boolean);
    expect(real.length).toBeGreaterThan(10);
    expect(exportsOf(source).sort()).toEqual([...real].sort());
  });

  it('imports only Spanish, English and the default texts, each from its Amplify UI file', () => {
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports).toEqual(['./authenticator/es.mjs', './authenticator/en.mjs', './authenticator/defaultTexts.mjs']);
    expect(source).toContain('export const esDict = { ...esSource };');
    expect(source).toContain('export const deDict = {};');
    expect(source).not.toMatch(/authenticator\/(de|fr|ja|zh)\.mjs/);
  });

  it('fails the build, with the reason, when Amplify UI no longer exports a kept dictionary', () => {
    expect(() => onlyPortalLanguagesSource(original.replace('esDict, ', ''))).toThrow(/no longer export esDict/);
  });

  it('the plugin replaces that module only', () => {
    const plugin = onlyPortalLanguages();
    const load = plugin.load as (id: string) => string | null;
    expect(DICTIONARIES_MODULE.test(REAL)).toBe(true);
    expect(load.call({}, REAL)).toBe(source);
    expect(load.call({}, path.join(UI_ROOT, 'dist/esm/i18n/translations.mjs'))).toBeNull();
  });
});
