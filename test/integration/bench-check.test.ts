/**
 * `npm run bench -- --check --from <file>` as a command line (a `node --import tsx` subprocess): it prints
 * PASS/FAIL per budget and exits 0 when every budget passes, 1 when one is broken, 2 on an unusable file.
 * The budget rules themselves are tested as a pure function in test/unit/bench-budgets.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../scripts/bench/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(root, 'bench/fixtures', name), 'utf8')) as BenchResults;
let dir: string;

/** Runs the bench's check on a results file; resolves with its exit status and output (never rejects). */
function check(file: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', '--check', '--from', file], { cwd: root, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'bench-check-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// The runs are independent processes: run them side by side.
describe.concurrent('npm run bench -- --check --from <file>', () => {
  it('exits 1 and names the broken budget for the broken fixture', async () => {
    const res = await check('bench/fixtures/broken.json');
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('FAIL  portal.signin-js: 1.20 ×');
  });

  it('exits 1 and names the broken scale budget for the broken-scale fixture (365-day report at ×100)', async () => {
    const res = await check('bench/fixtures/broken-scale.json');
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('FAIL  scale.route-requests:getReport 365d: 5056 requests, 16760 RCU (limits 10, 50)');
    expect(res.stdout).toContain('FAIL  scale.report-time:getReport 365d: 26000 ms, 6.2 KB');
    expect(res.stdout).toContain('PASS  scale.route-requests:getAnalytics 365d');
    // A poll that reads the whole summary again, and a same-minute heartbeat that writes everything again.
    expect(res.stdout).toContain('FAIL  scale.poll-unchanged:getSummary poll unchanged (If-None-Match): HTTP 200, 4 requests (2 GetItem, 2 Query), 7 RCU');
    expect(res.stdout).toContain('FAIL  scale.quiet-heartbeat-wcu:ingestHeartbeat same minute: 15 WCU, 8 requests');
  });

  it('exits 0 for the passing fixture', async () => {
    const res = await check('bench/fixtures/passing.json');
    expect(res.stdout).not.toContain('FAIL');
    expect(res.stdout).toContain('PASS  lambda.cold-start:incidents: 2.20 ×');
    expect(res.stdout).toContain('PASS  scale.poll-unchanged:getSummary poll unchanged (If-None-Match): HTTP 304, 1 requests (1 GetItem), 0.5 RCU');
    expect(res.stdout).toContain('PASS  scale.quiet-heartbeat-wcu:ingestHeartbeat same minute: 1 WCU');
    expect(res.status).toBe(0);
  });

  it('rejects a schema 1 file with exit 2 and says why', async () => {
    writeFileSync(path.join(dir, 'v1.json'), JSON.stringify({ ...fixture('passing.json'), schema: 1 }));
    const res = await check(path.join(dir, 'v1.json'));
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('is a schema 1 bench result');
    expect(res.stdout).not.toContain('PASS');
  });
});
