/**
 * The README "Performance" summary that `npm run bench` writes: one row per budget with its worst case
 * (a failing outcome first), and a marker-delimited block replaced in place.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkBudgets, summariseBudgets } from '../../scripts/bench/budgets.js';
import { README_MARKERS, renderReadmeSummary, replaceReadmeSummary } from '../../scripts/bench/report.js';
import type { BenchResults } from '../../scripts/bench/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(root, 'bench/fixtures', name), 'utf8')) as BenchResults;

describe('summariseBudgets', () => {
  it('groups outcomes per budget and picks the failing one, else the least headroom', () => {
    const rows = summariseBudgets([
      { id: 'api.list-throughput:a', rule: 'r', pass: true, detail: 'a', headroom: 1.9 },
      { id: 'api.list-throughput:b', rule: 'r', pass: true, detail: 'b', headroom: 1.1 },
      { id: 'api.list-throughput:c', rule: 'r', pass: true, detail: 'c', headroom: 1.5 },
      { id: 'lambda.cold-start:x', rule: 'l', pass: true, detail: 'x', headroom: 1.02 },
      { id: 'lambda.cold-start:y', rule: 'l', pass: false, detail: 'y', headroom: 0.9 },
      { id: 'dynamodb.no-scan', rule: 's', pass: true, detail: 'none' },
    ]);
    expect(rows.map((r) => [r.id, r.passed, r.total, r.worst.detail])).toEqual([
      ['api.list-throughput', 3, 3, 'b'],
      ['lambda.cold-start', 1, 2, 'y'],
      ['dynamodb.no-scan', 1, 1, 'none'],
    ]);
  });
});

describe('README summary', () => {
  it('lists every budget with its result and the machine the run was on', () => {
    const res = fixture('broken.json');
    const text = renderReadmeSummary(res, checkBudgets(res));
    expect(text).toContain(res.machine.cpuModel);
    expect(text).toContain(res.machine.node);
    expect(text).toMatch(/\| sign-in page initial JS gzip ≤ 1 × [^|]+\| 0 \/ 1 \| 1\.20 × [^|]+\| \*\*FAIL\*\* \|/);
    expect(text).toMatch(/\| no route uses a Scan \| 1 \/ 1 \|[^|]+\| pass \|/);
  });

  it('replaces only the marked block, repeatedly, and refuses a README without markers', () => {
    const readme = `# T\n\n## Performance\n${README_MARKERS.start}\nold\n${README_MARKERS.end}\n\n## Next\n`;
    const once = replaceReadmeSummary(readme, 'new table');
    expect(once).toBe(`# T\n\n## Performance\n${README_MARKERS.start}\nnew table\n${README_MARKERS.end}\n\n## Next\n`);
    expect(replaceReadmeSummary(once!, 'new table')).toBe(once);
    expect(replaceReadmeSummary('# no markers\n', 'x')).toBeNull();
  });

  it('the repository README carries the markers', () => {
    expect(replaceReadmeSummary(readFileSync(path.join(root, 'README.md'), 'utf8'), 'x')).not.toBeNull();
  });
});
