/**
 * The results file of `npm run bench` (`scripts/bench/types.ts`): reading it back with a schema check, and
 * merging a `--only` run into the previous full run (pure functions).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBudgets } from '../../scripts/bench/budgets.js';
import { renderMarkdown } from '../../scripts/bench/report.js';
import { mergeResults, parseResults, type BenchResults, type Section } from '../../scripts/bench/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = () => JSON.parse(readFileSync(path.join(root, 'bench/fixtures/passing.json'), 'utf8')) as BenchResults;

const EARLIER = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T10:00:00.000Z';

/** A `--only lambda` run: only the cold-start section, measured later, with other figures. */
function lambdaOnlyRun(): BenchResults {
  const r = fixture();
  r.startedAt = LATER;
  r.durationMs = 9000;
  r.machine.chromium = null;
  r.measuredAt = { lambda: LATER };
  r.portal = null;
  r.api = null;
  r.cost = null;
  r.scale = null;
  r.coldStart!.handlers[0]!.coldStartMs = 40;
  return r;
}

describe('parseResults', () => {
  it('returns a schema 2 file as is', () => {
    const r = fixture();
    expect(parseResults(r, 'x.json')).toBe(r);
  });

  it('rejects schema 1 with the reason and what to do, and any other shape', () => {
    expect(() => parseResults({ ...fixture(), schema: 1 }, 'old.json')).toThrow(/^old\.json is a schema 1 bench result: .*in-process import time only.*Re-run npm run bench/);
    expect(() => parseResults({ schema: 3 }, 'y.json')).toThrow('y.json is not a bench result of schema 2 (schema: 3).');
    expect(() => parseResults(null, 'z.json')).toThrow('(schema: undefined)');
  });
});

describe('mergeResults', () => {
  it('replaces the measured sections and keeps the others with their own measuredAt', () => {
    const previous = fixture();
    const current = lambdaOnlyRun();
    const { results, kept, note } = mergeResults(previous, current, new Set<Section>(['lambda']));
    expect(note).toBeNull();
    expect(kept).toEqual(['portal', 'api', 'scale']);
    expect(results.measuredAt).toEqual({ lambda: LATER, portal: EARLIER, api: EARLIER, scale: EARLIER });
    expect(results.scale).toEqual(previous.scale);
    expect(results.coldStart!.handlers[0]!.coldStartMs).toBe(40);
    expect(results.portal).toEqual(previous.portal);
    expect(results.api).toEqual(previous.api);
    expect(results.cost).toEqual(previous.cost);
    expect(results.machine.chromium).toBe('Chromium 1'); // goes with the kept portal section
    expect(results.startedAt).toBe(LATER);
    expect(results.durationMs).toBe(9000);
    expect(checkBudgets(results).filter((o) => !o.pass)).toEqual([]);
  });

  it('does not modify its inputs', () => {
    const previous = fixture();
    const current = lambdaOnlyRun();
    const before = [structuredClone(previous), structuredClone(current)];
    const { results } = mergeResults(previous, current, new Set<Section>(['lambda']));
    results.portal!.dashboard.runs = 99;
    results.measuredAt.api = 'changed';
    expect([previous, current]).toEqual(before);
  });

  it('takes a measured section from the new run even when it failed there, and keeps old errors of kept sections', () => {
    const previous = fixture();
    previous.errors = { api: 'autocannon exited 1' };
    const current = lambdaOnlyRun();
    current.coldStart = null;
    current.errors = { lambda: 'import of reports failed' };
    const { results } = mergeResults(previous, current, new Set<Section>(['lambda']));
    expect(results.coldStart).toBeNull();
    expect(results.errors).toEqual({ lambda: 'import of reports failed', api: 'autocannon exited 1' });
    expect(results.measuredAt.lambda).toBe(LATER);
  });

  it('a section measured again drops its old error', () => {
    const previous = fixture();
    previous.errors = { portal: 'signed-in dashboard flow failed: timeout' };
    const current = fixture();
    current.measuredAt = { portal: LATER };
    current.errors = {};
    const { results } = mergeResults(previous, current, new Set<Section>(['portal']));
    expect(results.errors).toEqual({});
    expect(results.measuredAt).toEqual({ portal: LATER, api: EARLIER, lambda: EARLIER, scale: EARLIER });
  });

  it('keeps nothing from another machine or Node version, or without a previous file', () => {
    const previous = fixture();
    previous.machine.node = 'v22.0.0';
    previous.machine.cores = 8;
    const current = lambdaOnlyRun();
    const other = mergeResults(previous, current, new Set<Section>(['lambda']));
    expect(other.results).toBe(current);
    expect(other.kept).toEqual([]);
    expect(other.note).toBe('previous results not kept: measured with a different cores, node');
    expect(mergeResults(null, current, new Set<Section>(['lambda'])).results).toBe(current);
  });

  it('does not invent sections the previous file never measured', () => {
    const previous = fixture();
    previous.measuredAt = { api: EARLIER };
    previous.portal = null;
    previous.coldStart = null;
    const { results, kept } = mergeResults(previous, lambdaOnlyRun(), new Set<Section>(['lambda']));
    expect(kept).toEqual(['api']);
    expect(results.portal).toBeNull();
    expect(Object.keys(results.measuredAt).sort()).toEqual(['api', 'lambda']);
  });

  it('the Markdown says when each section was measured when they differ', () => {
    const { results } = mergeResults(fixture(), lambdaOnlyRun(), new Set<Section>(['lambda']));
    const md = renderMarkdown(results, checkBudgets(results));
    expect(md).toContain(`Sections come from different runs (same machine): portal ${EARLIER}, api ${EARLIER}, lambda ${LATER}, scale ${EARLIER}.`);
    expect(md).toContain('Last run (lambda) took 9 s.');
    expect(md).toMatch(new RegExp(`## Lambda cold-start proxy[^\\n]*\\n\\n_Measured ${LATER}\\._`));
    expect(md).toMatch(new RegExp(`## Portal load\\n\\n_Measured ${EARLIER}\\._`));
    expect(md).toMatch(new RegExp(`## DynamoDB cost per typical call[^\\n]*\\n\\n_Measured ${EARLIER}\\._`));
  });
});
