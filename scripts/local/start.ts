/**
 * `npm start`: the whole system offline — DynamoDB engine, Cognito user pool, API gateway over the
 * Lambda handlers, demo data and the portal — with progress output, then a ready banner (the portal URL,
 * the demo credentials, the request log file and how to stop). Ctrl-C stops every child process.
 *
 * Flags and environment variables: `npm start -- --help` (defined in `./start-options.ts`; settings from
 * the environment are read once, here, by `localSettingsFromEnv` in `./config.ts`).
 *
 * Output: every API request and collector event is appended to `<state folder>/requests.log` (truncated
 * at each start); the terminal shows a one-line summary every 10 s while requests arrive, every request
 * with `--verbose`, neither with `--quiet`. Handler warnings and errors always reach the terminal.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { localSettingsFromEnv, LocalSettingError, type LocalEnvSettings } from './config.js';
import type { GatewayRequest } from './gateway.js';
import type { RunningLocalStack } from './stack.js';
import {
  countRequest,
  formatRequestSummary,
  NO_REQUESTS,
  parseStartArgs,
  startUsage,
  StartUsageError,
  SUMMARY_INTERVAL_MS,
  type StartFlags,
} from './start-options.js';

let flags: StartFlags;
let settings: LocalEnvSettings;
try {
  flags = parseStartArgs(process.argv.slice(2));
  settings = localSettingsFromEnv(process.env);
} catch (e) {
  if (!(e instanceof StartUsageError || e instanceof LocalSettingError)) throw e;
  console.error(`✖ ${e.message}`);
  process.exit(2);
}
if (flags.help) {
  console.log(startUsage());
  process.exit(0);
}
// Loaded after the flags are checked, so `--help` and usage errors answer at once.
const { startLocalStack } = await import('./stack.js');
const { formatGatewayRequest } = await import('./gateway.js');

const { dataDir } = settings;
/** A path as the user would type it: relative when inside the working folder, else absolute. */
const shown = (p: string) => {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
};
const shownDataDir = shown(dataDir);
const started = Date.now();
const step = (line: string) => console.log(`  • ${line}`);

console.log('Vigía — starting the local stack (offline: no AWS account, no Docker)');
if (flags.reset) {
  rmSync(dataDir, { recursive: true, force: true });
  step(`local state reset (${shownDataDir} removed)`);
}

// Per-request lines go to a file; the terminal gets them only with --verbose, else a summary per window.
mkdirSync(dataDir, { recursive: true });
const requestLogPath = path.join(dataDir, 'requests.log');
const requestLog = createWriteStream(requestLogPath, { flags: 'w' });
const closeRequestLog = () => new Promise<void>((resolve) => requestLog.end(resolve));
const toFile = (line: string) => requestLog.write(`${new Date().toISOString()} ${line}\n`);
let window = { ...NO_REQUESTS };
const onRequest = (r: GatewayRequest) => {
  const line = formatGatewayRequest(r);
  toFile(line);
  if (flags.requests === 'each') console.log(`    api ${line}`);
  else window = countRequest(window, r);
};
const collectorLog = (line: string) => {
  toFile(line);
  if (flags.requests === 'each') console.log(`    ${line}`);
};

let stack: RunningLocalStack | undefined;
let summaryTimer: NodeJS.Timeout | undefined;
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  clearInterval(summaryTimer);
  if (stack) {
    console.log('\nStopping the local stack…');
    await stack.stop();
    console.log(`Stopped. Your data stays in ${shownDataDir} (npm start -- --reset to start fresh).`);
  }
  await closeRequestLog();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  stack = await startLocalStack({
    dataDir,
    ports: settings.ports,
    seed: flags.seed,
    collector: flags.collector && settings.collector,
    collectorCredential: settings.collectorCredential,
    logLevel: settings.logLevel,
    serveWeb: flags.web,
    buildPortal: flags.build,
    log: step,
    onRequest,
    collectorLog,
    // "Iniciar sesión con la cuenta de tu empresa" against a local stand-in of Acme's identity provider.
    federation: true,
    notifications: true,
  });
} catch (e) {
  console.error(`✖ ${(e as Error).message}`);
  if (settings.debug) console.error(e);
  await closeRequestLog();
  process.exit(1);
}

const secs = ((Date.now() - started) / 1000).toFixed(1);
// Staff need TOTP (docs/api.md#staff-accounts-and-totp): the secret of the demo admin's authenticator app.
const users = stack.demoUsers
  .map((u) => {
    const line = `    ${u.email.padEnd(28)} ${u.password.padEnd(18)} ${u.description}`;
    if (u.totpSecret) return `${line}\n${' '.repeat(4 + 29 + 19)}TOTP secret ${u.totpSecret} (add it to an authenticator app)`;
    if (u.totp) return `${line}\n${' '.repeat(4 + 29 + 19)}TOTP already set up (secret not known to this stack)`;
    return line;
  })
  .join('\n');
// Users of the local identity provider (docs/local-emulation.md#federated-sign-in): the company button, not the form.
const federated = stack.federatedUsers
  .map((u) => `    ${u.email.padEnd(28)} ${u.password.padEnd(18)} ${u.description}\n${' '.repeat(4 + 29 + 19)}signs in at ${u.idp} (accept the user pool's self-signed certificate at https://${stack.config.oauth?.domain ?? ''} once)`)
  .join('\n');
// The user pool's hosted OAuth endpoints and the customer's identity provider (federation).
const oauthLines = stack.config.oauth
  ? `\n  OAuth       https://${stack.config.oauth.domain}   (the user pool's hosted endpoints; self-signed certificate)\n  Company IdP ${stack.federatedUsers[0]?.idp ?? ''}   (Acme's identity provider, oidc-provider)` +
    // What staff enter to bind it to another customer in Administración (docs/local-emulation.md#identity-providers-set-by-staff).
    (stack.identityProvider ? `\n              as another customer's provider: issuer ${stack.identityProvider.issuer}, client id ${stack.identityProvider.clientId}, client secret ${stack.identityProvider.clientSecret}` : '')
  : '';
const shownLog = shown(requestLogPath);
const requestOutput = {
  summary: `summary here every ${SUMMARY_INTERVAL_MS / 1000} s; --verbose prints each request`,
  each: 'each request also printed here',
  none: 'nothing printed here: --quiet',
}[flags.requests];
console.log(`
Ready in ${secs} s.

  Portal      ${stack.urls.web ?? '(not served)'}
  API         ${stack.urls.api}   (ID token in Authorization)
  User pool   ${stack.urls.cognito}   (${stack.config.userPoolId}, app client ${stack.config.userPoolClientId})
  DynamoDB    ${stack.urls.dynamodb}   (table ${stack.tableName})${oauthLines}
  Mail        ${stack.urls.mail ?? '(off)'}   (SES emulator: the e-mail notifications sent, as a web page; JSON at /store)
  Requests    ${shownLog}   (${requestOutput})
  Invitations ${shown(path.join(dataDir, 'invitations.log'))}   (temporary passwords of invited users; not e-mailed offline)

  Demo users (local only):
${users || '    (none: started with --no-seed)'}
${federated}
  Verification and reset codes offline are always 123456.

Press Ctrl-C to stop.`);

if (flags.requests === 'summary') {
  // Requests made while starting (the collector's first tick) are in the file only.
  window = { ...NO_REQUESTS };
  let windowStart = Date.now();
  summaryTimer = setInterval(() => {
    const now = Date.now();
    const line = formatRequestSummary(window, now - windowStart);
    window = { ...NO_REQUESTS };
    windowStart = now;
    if (line) console.log(`    ${line}`);
  }, SUMMARY_INTERVAL_MS);
}
