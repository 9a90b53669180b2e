/**
 * Browser-suite support: a fresh local stack (the same `startLocalStack` as `npm start`, on random ports,
 * in a temp folder) and Debian's Chromium driven by playwright-core.
 *
 * Chromium: `/usr/bin/chromium` (apt-get install -y chromium), or `CHROMIUM_PATH`. Screenshots go to
 * `test-results/e2e/` (git-ignored). Every page records console errors, failed API requests and CSP
 * violations so a test can assert there were none.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AdminAddUserToGroupCommand, AdminCreateUserCommand, AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { lastCodeFor } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL, REPO_ROOT, type Ports } from '../../scripts/local/config.js';
import { totpCode } from '../../scripts/local/demo-totp.js';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';
import { writeRuntimeReport } from '../../scripts/aws-rules/recorder.js';
import { dynamoRulesReport } from '../../scripts/local/dynamodb-rules/index.js';
import { isPortalPage } from '../../scripts/local/portal-index.js';
import { PORTAL_CONFIG_ELEMENT_ID, withInlinePortalConfig } from '../../lambdas/contract/portal-config-html.js';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/lib/chromium.js';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results/e2e');
export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1440, height: 900 },
} as const;


export interface E2eEnv {
  stack: RunningLocalStack;
  browser: Browser;
  /** Base URL of the portal, e.g. http://127.0.0.1:43121 */
  web: string;
  /** The stack's temp data folder (the local pool keeps its files under `<dataDir>/cognito`). */
  dataDir: string;
  /** Stops the stack and starts it again on the same data and ports: like re-running `npm start`. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * IAM on every call (scripts/aws-rules/recorder.ts): writes what this browser file's stack evaluated to
 * `test-results/aws-rules/` (read by `npm run check:aws`) and throws, failing the file, when any function made
 * a call its role would be denied on AWS.
 */
function assertNoIamDenies(): void {
  const name = path.basename(process.argv[1] ?? `pid-${process.pid}`);
  const report = writeRuntimeReport(`e2e-${name}`, { dynamodb: dynamoRulesReport().proxies });
  if (report.denies.length > 0) {
    throw new Error(`calls AWS would deny (IAM on every call, docs/local-emulation.md#iam):\n${[...new Set(report.denies.map((d) => d.message))].join('\n')}`);
  }
}

/**
 * Starts a seeded stack and Chromium. `federation`: the stack's local identity provider and the user pool's
 * hosted OAuth endpoints (HTTPS with a self-signed certificate, which the pages of this env then accept;
 * docs/local-emulation.md#federated-sign-in). `notifications`: as `npm start`, the SES emulator (on a random
 * port: `stack.urls.mail` is its mail page), the outbox poller and the daily digest timer
 * (docs/notifications.md#offline). `collector: false`: without the collector simulator (its random alarms change
 * what the portal shows; the stack's heartbeat stand-in keeps the demo devices beating).
 */
export async function startE2e(options: { federation?: boolean; notifications?: boolean; collector?: boolean } = {}): Promise<E2eEnv> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-e2e-'));
  const start = (ports: Partial<Ports>) =>
    startLocalStack({ dataDir, persist: true, ports, federation: options.federation === true, notifications: options.notifications === true, ...(options.collector === false ? { collector: false } : {}), log: (l) => console.log(`  [stack] ${l}`) });
  let stack = await start({ dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: 0, cognitoOAuth: 0, idp: 0, mail: 0 });
  for (const u of stack.demoUsers) if (u.totpSecret) totpSecrets.set(u.email, u.totpSecret);
  // playwright-core gives every launch a fresh, temporary profile (the equivalent of a new --user-data-dir).
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (e) {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    get stack() {
      return stack;
    },
    browser,
    get web() {
      return stack.urls.web!;
    },
    dataDir,
    restart: async () => {
      // Same ports as before, like re-running `npm start` (the handlers keep their container state).
      const port = (url: string) => Number(new URL(url).port);
      const ports: Partial<Ports> = {
        dynamodb: port(stack.urls.dynamodb),
        cognito: port(stack.urls.cognito),
        cognitoInternal: 0,
        api: port(stack.urls.api),
        web: port(stack.urls.web!),
        cognitoOAuth: stack.config.oauth ? port(`https://${stack.config.oauth.domain}`) : 0,
        idp: stack.federatedUsers[0] ? port(stack.federatedUsers[0].idp) : 0,
        mail: stack.urls.mail ? port(stack.urls.mail) : 0,
      };
      await stack.stop();
      stack = await start(ports);
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
      assertNoIamDenies();
    },
  };
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors, CSP violations and failed API calls seen so far. */
  problems: string[];
}

/** A fresh browser context (no shared storage) at the given viewport, with problem tracking. */
export async function newPage(env: E2eEnv, viewport: { width: number; height: number }): Promise<TrackedPage> {
  // The user pool's hosted OAuth endpoints (federation) use a self-signed certificate.
  const context = await env.browser.newContext({ viewport, locale: 'es-ES', ...(env.stack.config.oauth ? { ignoreHTTPSErrors: true } : {}) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.url().startsWith(env.stack.urls.api) && r.status() >= 500) problems.push(`api ${r.status()}: ${r.url()}`);
  });
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  return { context, page, problems };
}

/**
 * TOTP secrets of the seeded users that have one (the demo admin: staff must have TOTP,
 * docs/api.md#staff-accounts-and-totp), by e-mail; filled by {@link startE2e} from the stack's demo users.
 */
const totpSecrets = new Map<string, string>();

/**
 * Signs in through the real Amplify Authenticator (SRP against the local pool) and waits for the shell; a
 * seeded user with TOTP (the demo admin) answers the Authenticator's TOTP challenge with the current code.
 */
export async function signIn(page: Page, web: string, email: string, password: string): Promise<void> {
  await page.goto(`${web}/page/login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  // exact: a federated stack also shows 'Iniciar sesión con la cuenta de tu empresa'.
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  const secret = totpSecrets.get(email);
  if (secret) {
    await page.getByRole('heading', { name: 'Confirmar código TOTP' }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Código *').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
  }
  await signedInAs(page, email);
}

/** Fills the Authenticator's sign-in form with `email` and `password` and submits it (no wait: the caller checks what follows). */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/**
 * Resolves once the shell's header shows `email` and the sign-in form's flow has ended (the form, hidden while
 * the portal opened early, is gone: Amplify has stored the session, so a reload or a new page keeps it —
 * docs/portal.md#sign-in-to-dashboard); rejects after 20 s.
 */
export async function signedInAs(page: Page, email: string): Promise<void> {
  await page.getByRole('banner').getByText(email).waitFor({ timeout: 20_000 });
  await page.locator('[data-amplify-authenticator]').waitFor({ state: 'detached', timeout: 20_000 });
}

/**
 * Creates an Acme user in the local pool as an administrator would (AdminCreateUser, username = e-mail),
 * then adds it to the `acme` group. By default the password is permanent (AdminSetUserPassword, no invitation
 * sent) and the e-mail verified; `temporary` makes `password` the invitation's temporary password instead
 * (status FORCE_CHANGE_PASSWORD), `emailVerified: false` leaves the e-mail unverified.
 */
export async function createAcmeUser(idp: CognitoIdentityProviderClient, env: E2eEnv, email: string, password: string, options: { temporary?: boolean; emailVerified?: boolean } = {}): Promise<void> {
  const UserPoolId = env.stack.config.userPoolId;
  const temporary = options.temporary === true;
  await idp.send(
    new AdminCreateUserCommand({
      UserPoolId,
      Username: email,
      TemporaryPassword: temporary ? password : undefined,
      MessageAction: temporary ? undefined : 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: String(options.emailVerified ?? true) },
      ],
    }),
  );
  if (!temporary) await idp.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: password, Permanent: true }));
  await idp.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName: 'acme' }));
}

/**
 * Makes the portal's pages in `context` carry `configText` as their configuration block instead of the
 * server's (docs/portal.md#configuration-in-indexhtml), or no block at all (`null`: the portal then fetches
 * `/config.json`). Only page loads (documents) are changed; the rest goes to the local stack unchanged.
 * @throws Error (in the route) if the served page has no configuration block.
 */
export async function routeConfigBlock(context: BrowserContext, configText: string | null): Promise<void> {
  await context.route(
    (url) => isPortalPage(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      const html = await response.text();
      const block = new RegExp(`<script type="application/json" id="${PORTAL_CONFIG_ELEMENT_ID}">.*?</script>`, 's');
      if (!block.test(html)) throw new Error(`the page ${route.request().url()} carries no configuration block`);
      const without = html.replace(block, '');
      const body = configText === null ? without : withInlinePortalConfig(without, configText);
      await route.fulfill({ response, body });
    },
  );
}

/**
 * Waits until a signed-in page has settled: its first `h1` is shown, the network is idle and no loading
 * skeleton (`.skeleton`) is left (up to 20 s).
 */
export async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('.skeleton').first().waitFor({ state: 'detached', timeout: 20_000 });
}

/** Asserts the page has no sideways scroll (document width ≤ viewport width, px). */
export async function noSidewaysScroll(page: Page): Promise<void> {
  const [scroll, width] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [number, number];
  if (scroll > width) throw new Error(`sideways scroll: document ${scroll} px wide in a ${width} px viewport`);
}

/** Saves a full-page screenshot as `test-results/e2e/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The last code (or AdminCreateUser temporary password) the local pool "sent" to `email`, optionally for one
 * `purpose` (SignUp, ResendConfirmationCode, ForgotPassword, AdminCreateUser…); throws when none was sent.
 */
export async function lastCode(env: E2eEnv, email: string, purpose?: string): Promise<string> {
  const code = await lastCodeFor(path.join(env.dataDir, 'cognito'), email, purpose);
  if (!code) throw new Error(`no code sent to ${email}${purpose ? ` for ${purpose}` : ''}`);
  return code;
}

/** An AWS SDK v3 client for the local user pool's admin API, signing with the local operator key (LOCAL_OPERATOR_CREDENTIAL). */
export function cognitoAdmin(env: E2eEnv): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint: env.stack.urls.cognito,
    region: env.stack.config.region,
    credentials: { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey },
  });
}

/** {@link startE2e} (with `options`) and a {@link cognitoAdmin} client on its user pool. */
export async function startE2eWithCognitoAdmin(options: Parameters<typeof startE2e>[0] = {}): Promise<{ env: E2eEnv; idp: CognitoIdentityProviderClient }> {
  const env = await startE2e(options);
  return { env, idp: cognitoAdmin(env) };
}

/** Destroys the admin client and closes the environment of {@link startE2eWithCognitoAdmin}; either may be absent (a failed start). */
export async function closeE2eWithCognitoAdmin(env: E2eEnv | undefined, idp: CognitoIdentityProviderClient | undefined): Promise<void> {
  idp?.destroy();
  await env?.close();
}

/**
 * axe-core's browser script (`axe.min.js`): the project's devDependency, or the copy at `AXE_CORE_PATH` (a folder
 * holding axe-core's package); null when neither is installed.
 */
export function axeSource(): string | null {
  const candidates = [process.env.AXE_CORE_PATH, REPO_ROOT].filter((p): p is string => Boolean(p));
  for (const base of candidates) {
    try {
      const file = createRequire(path.join(base, 'noop.js')).resolve('axe-core/axe.min.js');
      return readFileSync(file, 'utf8');
    } catch {
      // try the next place
    }
  }
  return null;
}

/** One axe-core violation as reported by {@link checkA11y}. */
export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending nodes. */
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A/AA and best-practice rules) on the current page and returns its serious and critical
 * violations (impact `serious` | `critical`); minor and moderate ones are ignored. The script is injected through
 * the DevTools protocol, so the portal's CSP (script-src 'self') does not block it. Throws when axe-core is missing.
 */
export async function checkA11y(page: Page): Promise<A11yViolation[]> {
  const source = axeSource();
  if (!source) throw new Error('axe-core is not installed (npm i -E -D axe-core, or set AXE_CORE_PATH)');
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(source);
  const json = await page.evaluate<string>(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))))",
  );
  return (JSON.parse(json) as A11yViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
