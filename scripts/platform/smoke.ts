/**
 * Smoke browser test of a running portal (local stack or a deployed stage's CloudFront URL): in headless
 * Chromium (playwright-core), load the portal, check its security headers, sign in through the Amplify
 * Authenticator with an existing user, wait for the signed-in shell, and fail on any Content-Security-Policy
 * violation, page error or console error. Finally a negative control injects an inline script, which the
 * CSP must refuse.
 *
 * With `--stage` and `--tenant` (deploy.yml, after each staging/prod deploy) it also tests the API of the
 * stage (`apiSmokeTest`): one SigV4-signed collector call (`POST /ingest/office365/events`, an audit event
 * that needs no device, signed with the caller's AWS credentials, which platform:grant-collector allowed on
 * the smoke tenant), then, signed in
 * as the admin-created smoke user (SRP), a customer of the smoke tenant, the customer's side of an incident
 * (docs/api.md#incident-roles): it opens one (or reuses the open one an earlier run left, so a stage holds at
 * most one open smoke incident), checks that setting a provider status is refused (403), and requests
 * closure (or, when an earlier run did, comments). Customers cannot close incidents: staff may close the
 * smoke incident from the SOC queue.
 *
 *   npm run platform:smoke -- --url https://d123.cloudfront.net --email ana@acme.example --password '...'
 *   npm run platform:smoke -- --url https://d123.cloudfront.net --email smoke-bot@example.com --stage prod --tenant smoke
 *
 * Chromium: `/usr/bin/chromium` or `CHROMIUM_PATH`. Exit status 0 = passed, 1 = failed (problems listed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SignatureV4 } from '@smithy/signature-v4';
import { chromium } from 'playwright-core';
import type { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { CHROMIUM_ARGS, chromiumPath } from '../lib/chromium.js';
import { signInWithSrp } from '../local/cognito/sign-in.js';
import { cloudFormationClient, portalConfigFromOutputs, resolveRegion, stageOutputs } from './aws.js';
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
  --stage      deployed stage: also test its API (signed ingest call, an incident opened, a provider status
               refused to the customer, closure requested)
  --tenant     the smoke tenant (with --stage): the user's tenant, the collector grant of the caller
  --region     AWS region (default $AWS_REGION)
  --local      start the offline stack (random ports, temp folder, demo data) and test it as a demo user
  --json       print the full result as JSON on stdout (exit status still tells pass/fail)
  --chromium   Chromium executable (default $CHROMIUM_PATH or /usr/bin/chromium)
  -h, --help   this text
`;


/** The IAM action of the signed collector call of `apiSmokeTest` (the caller's credentials), and its route. */
export const SMOKE_INGEST_ACTIONS = ['execute-api:Invoke'] as const;
export const SMOKE_INGEST_ROUTE = 'POST/ingest/office365/events';

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
export async function smokeTestLocal(o: { chromiumPath?: string; log?: (line: string) => void } = {}): Promise<SmokeResult & { stackConfig: PortalConfig; s3Endpoint: string }> {
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
    // The local S3 (attachments' uploads) is in the portal's connect-src too.
    return { ...r, stackConfig: stack.config, s3Endpoint: stack.urls.s3 };
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** AWS credentials as the SDK resolves them. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface ApiSmokeOptions {
  /** The stage's API URL (`ApiUrl` output, e.g. `https://abc.execute-api.eu-west-1.amazonaws.com/prod`). */
  apiUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** The admin-created smoke user (member of `tenant`) and its permanent password. */
  email: string;
  password: string;
  tenant: string;
  /** Cognito client for the SRP sign-in. */
  idp: CognitoIdentityProviderClient;
  /** AWS credentials the ingest call is signed with (a collector principal granted on `tenant`). */
  credentials: AwsCredentials | (() => Promise<AwsCredentials>);
  fetch?: typeof fetch;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface ApiSmokeResult {
  /** HTTP status of the signed `POST /ingest/office365/events`. */
  ingestStatus: number;
  /** Id of the incident opened (or reused) by the test. */
  incidentId?: string;
  /** Whether the incident was an open smoke incident of an earlier run. */
  reused?: boolean;
  /** Status of the incident after the last update (`new`, with a closure request, when the test passed). */
  finalStatus?: string;
  /** Human-readable failures; empty = passed. */
  problems: string[];
}

/** Title of the smoke incident; an open incident with it is reused by the next run. */
export const SMOKE_INCIDENT_TITLE = 'Smoke test (post-deploy)';

/**
 * API smoke test of a deployed stage: a SigV4-signed collector heartbeat into `tenant`, then, as the smoke
 * user (a customer), the customer's side of an incident: open one (`SMOKE_INCIDENT_TITLE`, or reuse the open
 * one found by `GET /incidents?status=new&q=`), a provider status refused with 403, a closure request (a
 * comment when closure was requested already).
 * Never throws for a failing API (see `problems`); AWS credential or Cognito sign-in errors propagate.
 */
export async function apiSmokeTest(o: ApiSmokeOptions): Promise<ApiSmokeResult> {
  const log = o.log ?? (() => undefined);
  const doFetch = o.fetch ?? fetch;
  const now = (o.now ?? (() => new Date()))();
  const base = o.apiUrl.replace(/\/+$/, '');
  const problems: string[] = [];

  const ingestUrl = new URL(`${base}/ingest/office365/events`);
  const body = JSON.stringify({
    eventId: `smoke-${now.getTime()}-${randomUUID().slice(0, 8)}`,
    tenantId: o.tenant,
    workload: 'Vigia',
    operation: 'PostDeploySmokeTest',
    user: o.email,
    result: 'Succeeded',
    clientIp: null,
    at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  const signer = new SignatureV4({ credentials: o.credentials, region: o.region, service: 'execute-api', sha256: Sha256 });
  const signed = await signer.sign(
    { method: 'POST', protocol: ingestUrl.protocol, hostname: ingestUrl.hostname, path: ingestUrl.pathname, query: {}, headers: { host: ingestUrl.host, 'content-type': 'application/json' }, body },
    { signingDate: now },
  );
  const ingest = await doFetch(ingestUrl, { method: 'POST', headers: signed.headers, body });
  log(`signed POST /ingest/office365/events for ${o.tenant}: ${ingest.status}`);
  if (ingest.status >= 300) problems.push(`signed ingest call answered ${ingest.status}: ${(await ingest.text()).slice(0, 300)}`);

  const tokens = await signInWithSrp(o.idp, { userPoolId: o.userPoolId, clientId: o.userPoolClientId, username: o.email, password: o.password });
  const idToken = tokens.IdToken;
  if (!idToken) return { ingestStatus: ingest.status, problems: [...problems, `sign-in of ${o.email} returned no ID token`] };
  type IncidentJson = { id?: string; version?: number; status?: string; closureRequested?: boolean; items?: IncidentJson[] };
  const call = async (method: string, path: string, json: unknown, extra: Record<string, string> = {}, query: Record<string, string> = {}) => {
    const qs = new URLSearchParams({ tenant: o.tenant, ...query }).toString();
    const res = await doFetch(`${base}${path}?${qs}`, {
      method,
      headers: { Authorization: idToken, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...extra },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    log(`${method} ${path}: ${res.status}`);
    return { status: res.status, text, json: (() => { try { return JSON.parse(text) as IncidentJson; } catch { return {}; } })() };
  };
  const fail = (what: string, r: { status: number; text: string }) => `${what} answered ${r.status}: ${r.text.slice(0, 300)}`;
  const open = await call('GET', '/incidents', undefined, {}, { status: 'new', q: SMOKE_INCIDENT_TITLE, limit: '1' });
  if (open.status !== 200) return { ingestStatus: ingest.status, problems: [...problems, fail('GET /incidents', open)] };
  let incident = open.json.items?.[0];
  const reused = incident !== undefined;
  if (!incident) {
    const created = await call('POST', '/incidents', {
      title: SMOKE_INCIDENT_TITLE,
      description: `Opened by the post-deploy smoke test (scripts/platform/smoke.ts) at ${now.toISOString()}; nothing to do, staff may close it.`,
      severity: 'low',
      category: 'smoke-test',
    }, { 'Idempotency-Key': `smoke-${now.getTime()}` });
    if (created.status !== 201) return { ingestStatus: ingest.status, problems: [...problems, fail('POST /incidents', created)] };
    incident = created.json;
  }
  if (!incident.id || !incident.version) return { ingestStatus: ingest.status, problems: [...problems, `incident without id or version: ${JSON.stringify(incident).slice(0, 300)}`] };
  const incidentId = incident.id;
  // Roles are enforced on the server: a customer setting a provider status is refused and nothing changes.
  const provider = await call('PATCH', `/incidents/${incidentId}`, { version: incident.version, status: 'in_progress' });
  if (provider.status !== 403) problems.push(fail(`PATCH /incidents/${incidentId} to in_progress as a customer (403 expected)`, provider));
  const note = `Smoke test ${now.toISOString()}: nothing to do.`;
  let finalStatus = incident.status;
  if (incident.closureRequested === true) {
    // Closure was requested by an earlier run (a second request is 409): a comment exercises the write path.
    const comment = await call('POST', `/incidents/${incidentId}/comments`, { body: note });
    if (comment.status !== 201) problems.push(fail(`POST /incidents/${incidentId}/comments`, comment));
  } else {
    const closure = await call('POST', `/incidents/${incidentId}/closure-request`, { note });
    if (closure.status !== 200 || closure.json.closureRequested !== true) problems.push(fail(`POST /incidents/${incidentId}/closure-request`, closure));
    finalStatus = closure.json.status ?? finalStatus;
  }
  return { ingestStatus: ingest.status, incidentId, reused, ...(finalStatus ? { finalStatus } : {}), problems };
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
    stage: { type: 'string' },
    tenant: { type: 'string' },
    region: { type: 'string' },
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
  const stage = optional(p, 'stage');
  let api: ApiSmokeResult | undefined;
  if (stage && !p.values.local) {
    const tenant = required(p, 'tenant');
    const region = resolveRegion(optional(p, 'region'));
    const cfn = cloudFormationClient(region);
    const config = portalConfigFromOutputs(stage, await stageOutputs(cfn, stage, region));
    const idp = new CognitoIdentityProviderClient({ region });
    try {
      api = await apiSmokeTest({
        apiUrl: config.apiUrl,
        region,
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        email: required(p, 'email'),
        password: optional(p, 'password') ?? process.env.SMOKE_PASSWORD ?? '',
        tenant,
        idp,
        // The default credential chain the SDK clients use (GitHub OIDC web identity in CI).
        credentials: () => cfn.config.credentials(),
        log,
      });
    } finally {
      idp.destroy();
      cfn.destroy();
    }
  }
  if (p.values.json) process.stdout.write(`${JSON.stringify(api ? { ...r, api } : r, null, 2)}\n`);
  const problems = [...r.problems, ...(api?.problems ?? [])];
  if (problems.length > 0) throw new Error(`smoke test failed:\n  - ${problems.join('\n  - ')}`);
  if (api) log(`API passed: signed ingest call ${api.ingestStatus}, incident ${api.incidentId} ${api.reused ? 'reused' : 'opened'}, provider status refused, closure requested`);
  log('passed: signed in, security headers present, no CSP violation, no console error, inline script refused');
}

runCli(import.meta.url, USAGE, main);
