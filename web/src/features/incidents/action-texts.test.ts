/**
 * Incident action messages come from the catalogue (issue 32 point 6): none of these Spanish literals is
 * written in a portal component (web/src/**\/*.tsx); they live in web/src/shared/lib/messages/{es,en} only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { es } from '../../shared/lib/messages/es';
import { en } from '../../shared/lib/messages/en';

const LITERALS = ['Cierre solicitado.', 'Incidente reabierto.'];
const ROOT = join(__dirname, '..', '..');

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsxFiles(path) : path.endsWith('.tsx') && !path.endsWith('.test.tsx') ? [path] : [];
  });
}

describe('incident action messages', () => {
  it('no component writes them; both catalogues have them', () => {
    const offenders = tsxFiles(ROOT).flatMap((f) => LITERALS.filter((l) => readFileSync(f, 'utf8').includes(`'${l}'`)).map((l) => `${f}: ${l}`));
    expect(offenders).toEqual([]);
    expect(es.incidents.detail.closureRequestedDone).toBe('Cierre solicitado.');
    expect(es.incidents.detail.reopenedDone).toBe('Incidente reabierto.');
    expect(en.incidents.detail.closureRequestedDone).toBe('Closure requested.');
    expect(en.incidents.detail.reopenedDone).toBe('Incident reopened.');
  });
});
