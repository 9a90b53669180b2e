/**
 * The local portal (same `startLocalStack` as `npm start`, random ports, temp folder) sends the security
 * headers of `infra/security-headers.ts`, and a real sign-in in headless Chromium raises no CSP violation —
 * the policy CloudFront sends is exercised end to end by `scripts/platform/smoke.ts --local` (the same
 * script preview.yml runs against the CloudFront URL).
 *
 * Runs the script as a tsx subprocess: inside vitest, Vite's transform breaks the local gateway's dynamic
 * handler import. Needs /usr/bin/chromium (or CHROMIUM_PATH) and builds the portal when stale.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { localSecurityHeaders } from '../../infra/security-headers.js';
import type { SmokeResult } from '../../scripts/platform/smoke.js';
import type { PortalConfig } from '../../lambdas/contract/portal-config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let result: SmokeResult & { stackConfig: PortalConfig };
let exitCode = 0;

describe('local portal: security headers and CSP in Chromium', () => {
  beforeAll(async () => {
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
  }, 180_000);

  it('serves exactly the shared security headers with the local Cognito and API origins', () => {
    const expected = localSecurityHeaders(result.stackConfig);
    for (const [name, value] of Object.entries(expected)) expect(result.headers[name.toLowerCase()], name).toBe(value);
    const cognito = new URL(result.stackConfig.userPoolEndpoint!).origin;
    expect(result.headers['content-security-policy']).toContain(`connect-src 'self' ${cognito} ${new URL(result.stackConfig.apiUrl).origin};`);
  });

  it('a customer signs in with no CSP violation, console error or 5xx; an injected inline script is refused', () => {
    expect(result.signedIn).toBe(true);
    // zod's eval probe is gone since the portal sets z.config({ jitless: true }) (web/src/shared/lib/zod-setup.ts).
    expect(result.cspViolations).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.inlineScriptBlocked).toBe(true);
    // The script's own verdict agrees.
    expect(result.problems).toEqual([]);
    expect(exitCode).toBe(0);
  });
});
