/**
 * Smoke browser test of a running portal (local stack or a deployed stage's CloudFront URL): in headless
 * Chromium (playwright-core), load the portal, check its security headers, sign in through the Amplify
 * Authenticator with an existing user, wait for the signed-in shell, and fail on any Content-Security-Policy
 * violation, page error or console error. Finally a negative control injects an inline script, which the
 * CSP must refuse.
 *
 *   npm run platform:smoke -- --url https://d123.cloudfront.net --email ana@acme.example --password '...'
 *
 * Chromium: `/usr/bin/chromium` or `CHROMIUM_PATH`. Exit status 0 = passed, 1 = failed (problems listed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { CHROMIUM_ARGS, chromiumPath } from '../lib/chromium.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/smoke.ts --url <portal URL> --email <e-mail> --password <password>
       tsx scripts/platform/smoke.ts --local [--json]

Signs in to the portal in headless Chromium and fails on CSP violations, page/console errors or missing
security headers.

Options:
  --url        portal URL (e.g. the stage's SiteUrl output)
  --email      an existing user of the stage's user pool (confirmed, permanent password)
  --password   that user's password (or env SMOKE_PASSWORD)
  --local      start the offline stack (random ports, temp folder, demo data) and test it as a demo user
  --json       print the full result as JSON on stdout (exit status still tells pass/fail)
  --chromium   Chromium executable (default $CHROMIUM_PATH or /usr/bin/chromium)
  -h, --help   this text
`;


/** Headers the portal's HTML response must carry (names lower-case). */
export const REQUIRED_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
] as const;

export interface SmokeOptions {
  url: string;
  email: string;
  password: string;
  chromiumPath?: string;
  log?: (line: string) => void;
  /** Sign-in wait in ms (default 30 000). */
  timeoutMs?: number;
}

export interface SmokeResult {
  /** Response headers of the portal page (lower-case names). */
  headers: Record<string, string>;
  /** `<violatedDirective> <blockedURI> at <sourceFile>:<line>` of each `securitypolicyviolation` event. */
  cspViolations: string[];
  /** Page errors, console errors and HTTP 5xx responses. */
  errors: string[];
  /** Whether the signed-in shell (header showing the e-mail) appeared. */
  signedIn: boolean;
  /** Negative control: an injected inline script was refused by the CSP (and reported as a violation). */
  inlineScriptBlocked: boolean;
  /** Human-readable failures; empty = passed. */
  problems: string[];
}

/** Runs the smoke test; never throws for a failing portal (see `problems`), only for a missing browser. */
export async function smokeTest(o: SmokeOptions): Promise<SmokeResult> {
  const log = o.log ?? (() => undefined);
  // playwright-core gives the browser a fresh temporary profile itself.
  const browser = await chromium.launch({
    executablePath: o.chromiumPath ?? chromiumPath(),
    args: CHROMIUM_ARGS,
  });
  const cspViolations: string[] = [];
  const errors: string[] = [];
  let headers: Record<string, string> = {};
  let signedIn = false;
  let inlineScriptBlocked: boolean;
  try {
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    await page.exposeFunction('__vigiaCsp', (v: string) => void cspViolations.push(v));
    // Runs in the page (a string: this module is compiled without the DOM library).
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => window.__vigiaCsp(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));",
    );
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 500) errors.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
    });
    log(`opening ${o.url}`);
    const response = await page.goto(o.url, { waitUntil: 'load' });
    headers = response ? await response.allHeaders() : {};
    log('signing in');
    await page.getByLabel('Correo electrónico').fill(o.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(o.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    try {
      await page.getByRole('banner').getByText(o.email).waitFor({ timeout: o.timeoutMs ?? 30_000 });
      signedIn = true;
      log('signed in; letting the first page load');
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    } catch {
      log('the signed-in shell did not appear');
    }
    // Negative control: the CSP must refuse an inline script (its violation is expected, not a problem).
    const before = cspViolations.length;
    const errorsBefore = errors.length;
    await page.addScriptTag({ content: 'window.__vigiaInlineRan = true;' }).catch(() => undefined);
    await page.waitForTimeout(200);
    const ran = await page.evaluate('window.__vigiaInlineRan === true');
    const probe = cspViolations.splice(before);
    errors.splice(errorsBefore); // Chromium also logs the refused inline script as a console error
    inlineScriptBlocked = ran === false && probe.some((v) => v.startsWith('script-src'));
    log(inlineScriptBlocked ? 'CSP refused an injected inline script (expected)' : 'CSP did NOT refuse an injected inline script');
  } finally {
    await browser.close().catch(() => undefined);
  }
  const problems = [
    ...REQUIRED_HEADERS.filter((h) => !headers[h]).map((h) => `missing header ${h}`),
    ...cspViolations.map((v) => `CSP violation: ${v}`),
    ...errors,
    ...(signedIn ? [] : [`sign-in as ${o.email} did not reach the portal`]),
    ...(inlineScriptBlocked ? [] : ['the Content-Security-Policy did not block an inline script']),
  ];
  return { headers, cspViolations, errors, signedIn, inlineScriptBlocked, problems };
}

/** Starts the offline stack on random ports in a temp folder and runs the smoke test as a demo customer. */
export async function smokeTestLocal(o: { chromiumPath?: string; log?: (line: string) => void } = {}): Promise<SmokeResult & { stackConfig: PortalConfig }> {
  const { startLocalStack } = await import('../local/stack.js');
  const { DEMO_PASSWORD } = await import('../local/demo-data.js');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-smoke-local-'));
  const stack = await startLocalStack({
    dataDir,
    persist: false,
    ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: 0 },
    ...(o.log ? { log: o.log } : {}),
  });
  try {
    const r = await smokeTest({ url: stack.urls.web!, email: LOCAL_SMOKE_USER, password: DEMO_PASSWORD, ...o });
    return { ...r, stackConfig: stack.config };
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Demo customer used by `--local` (scripts/local/demo-data.ts). */
export const LOCAL_SMOKE_USER = 'ana@acme.example';

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    url: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    chromium: { type: 'string' },
    local: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (!p) return 'help';
  const log = progress('smoke');
  const chromiumPath = optional(p, 'chromium');
  let r: SmokeResult;
  if (p.values.local) {
    r = await smokeTestLocal({ log, ...(chromiumPath ? { chromiumPath } : {}) });
  } else {
    const password = optional(p, 'password') ?? process.env.SMOKE_PASSWORD;
    if (!password) throw new UsageError('--password (or SMOKE_PASSWORD) is required');
    r = await smokeTest({ url: required(p, 'url'), email: required(p, 'email'), password, log, ...(chromiumPath ? { chromiumPath } : {}) });
  }
  if (p.values.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  if (r.problems.length > 0) throw new Error(`smoke test failed:\n  - ${r.problems.join('\n  - ')}`);
  log('passed: signed in, security headers present, no CSP violation, no console error, inline script refused');
}

runCli(import.meta.url, USAGE, main);
