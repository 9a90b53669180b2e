/**
 * The local portal (same `startLocalStack` as `npm start`, random ports, temp folder) sends the security
 * headers of `infra/security-headers.ts`, and a real sign-in in headless Chromium raises no CSP violation —
 * the policy CloudFront sends is exercised end to end by `scripts/platform/smoke.ts --local` (the same
 * script preview.yml runs against the CloudFront URL).
 *
 * Runs the script as a tsx subprocess, as preview.yml does. Needs /usr/bin/chromium (or CHROMIUM_PATH)
 * and builds the portal when stale.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import { localSecurityHeaders } from '../../infra/security-headers.js';
import type { SmokeResult } from '../../scripts/platform/smoke.js';
import type { PortalConfig } from '../../lambdas/contract/portal-config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let result: SmokeResult & { stackConfig: PortalConfig; s3Endpoint: string };
let exitCode = 0;

describe('local portal: security headers and CSP in Chromium', () => {
  before(async () => {
    try {
      const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/platform/smoke.ts', '--local', '--json'], {
        cwd: ROOT,
        timeout: 170_000,
        maxBuffer: 10 * 1024 * 1024,
      });
      result = JSON.parse(stdout) as typeof result;
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      exitCode = err.code ?? -1;
      if (!err.stdout?.trim().startsWith('{')) throw new Error(`smoke.ts --local failed before testing: ${err.stderr ?? String(e)}`, { cause: e });
      result = JSON.parse(err.stdout) as typeof result;
    }
  });

  it('serves exactly the shared security headers with the local Cognito and API origins', () => {
    const expected = localSecurityHeaders(result.stackConfig, result.s3Endpoint);
    for (const [name, value] of Object.entries(expected)) assert.equal(result.headers[name.toLowerCase()], value, name);
    const cognito = new URL(result.stackConfig.userPoolEndpoint!).origin;
    assert.ok(
      result.headers['content-security-policy']?.includes(`connect-src 'self' ${cognito} ${new URL(result.stackConfig.apiUrl).origin} ${new URL(result.s3Endpoint).origin};`),
      result.headers['content-security-policy'],
    );
  });

  it('a customer signs in with no CSP violation, console error or 5xx; an injected inline script is refused', () => {
    assert.equal(result.signedIn, true);
    // zod's eval probe is gone since the portal sets z.config({ jitless: true }) (web/src/shared/lib/zod-setup.ts).
    assert.deepEqual(result.cspViolations, []);
    assert.deepEqual(result.errors, []);
    assert.equal(result.inlineScriptBlocked, true);
    // The script's own verdict agrees.
    assert.deepEqual(result.problems, []);
    assert.equal(exitCode, 0);
  });
});
