/**
 * `npm start`: the whole system offline — DynamoDB engine, Cognito user pool, API gateway over the
 * Lambda handlers, demo data and the portal — with progress output, then the portal URL, the demo
 * credentials and how to stop. Ctrl-C stops every child process.
 *
 * Flags (all optional):
 *   --reset            delete local state (.local/) first: fresh pool, table and demo data
 *   --no-build         serve web/dist as it is (fails if it was never built)
 *   --rebuild          always rebuild the portal
 *   --no-seed          do not create demo users/data
 *   --quiet            do not log each API request
 * Ports: VIGIA_PORT_WEB (5173), VIGIA_PORT_API (3001), VIGIA_PORT_COGNITO (9229),
 *        VIGIA_PORT_COGNITO_INTERNAL (9230), VIGIA_PORT_DYNAMODB (8000).
 * State:  VIGIA_DATA_DIR (default `.local/` in the repository).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, REPO_ROOT, startLocalStack, type Ports, type RunningLocalStack } from './stack.js';

// The pinned AWS SDK v3 still supports Node 20 (these machines); its notice about a future Node 22
// requirement is not actionable in a local session.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values: flags } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    rebuild: { type: 'boolean', default: false },
    'no-seed': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`✖ ${name}=${raw} is not a valid port`);
    process.exit(2);
  }
  return n;
}

const ports: Ports = {
  web: portFromEnv('VIGIA_PORT_WEB', DEFAULT_PORTS.web),
  api: portFromEnv('VIGIA_PORT_API', DEFAULT_PORTS.api),
  cognito: portFromEnv('VIGIA_PORT_COGNITO', DEFAULT_PORTS.cognito),
  cognitoInternal: portFromEnv('VIGIA_PORT_COGNITO_INTERNAL', DEFAULT_PORTS.cognitoInternal),
  dynamodb: portFromEnv('VIGIA_PORT_DYNAMODB', DEFAULT_PORTS.dynamodb),
};

const dataDir = process.env.VIGIA_DATA_DIR ? path.resolve(process.env.VIGIA_DATA_DIR) : path.join(REPO_ROOT, '.local');
const started = Date.now();
const step = (line: string) => console.log(`  • ${line}`);

let stack: RunningLocalStack | undefined;
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  if (stack) {
    console.log('\nStopping the local stack…');
    await stack.stop();
    console.log(`Stopped. Your data stays in ${path.relative(process.cwd(), dataDir) || dataDir} (npm start -- --reset to start fresh).`);
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

console.log('Vigía — starting the local stack (offline: no AWS account, no Docker)');
if (flags.reset) {
  rmSync(dataDir, { recursive: true, force: true });
  step('local state reset (.local/ removed)');
}

try {
  stack = await startLocalStack({
    dataDir,
    ports,
    seed: !flags['no-seed'],
    buildPortal: flags['no-build'] ? 'never' : flags.rebuild ? 'always' : 'auto',
    log: step,
    ...(flags.quiet ? {} : { requestLog: (l: string) => console.log(`    api ${l}`) }),
  });
} catch (e) {
  console.error(`✖ ${(e as Error).message}`);
  if (process.env.VIGIA_DEBUG) console.error(e);
  process.exit(1);
}

const secs = ((Date.now() - started) / 1000).toFixed(1);
const users = stack.demoUsers
  .map((u) => `    ${u.email.padEnd(28)} ${u.password.padEnd(18)} ${u.description}`)
  .join('\n');
console.log(`
Ready in ${secs} s.

  Portal      ${stack.urls.web ?? '(not served)'}
  API         ${stack.urls.api}   (ID token in Authorization)
  User pool   ${stack.urls.cognito}   (${stack.config.userPoolId}, app client ${stack.config.userPoolClientId})
  DynamoDB    ${stack.urls.dynamodb}   (table ${stack.tableName})

  Demo users (local only):
${users || '    (none: started with --no-seed)'}
  Verification and reset codes offline are always 123456.

Press Ctrl-C to stop.`);
