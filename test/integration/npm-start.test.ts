/**
 * `npm start` end to end (the CLI in a child process, every port 0, a temporary state folder): the
 * documented flags are accepted, `--help` lists them, a wrong flag is one line with exit code 2, the
 * ready banner names the request log, per-request lines go to that file (and to the terminal only with
 * `--verbose`), `--no-collector` starts no simulator, and SIGTERM stops everything with exit code 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/local/config.js';

const START = path.join(REPO_ROOT, 'scripts/local/start.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-npm-start-'));
const env = {
  ...process.env,
  VIGIA_DATA_DIR: dataDir,
  VIGIA_PORT_WEB: '0',
  VIGIA_PORT_API: '0',
  VIGIA_PORT_COGNITO: '0',
  VIGIA_PORT_COGNITO_INTERNAL: '0',
  VIGIA_PORT_DYNAMODB: '0',
  VIGIA_PORT_COGNITO_OAUTH: '0',
  VIGIA_PORT_IDP: '0',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Runs the CLI to completion (flags that exit before starting anything). */
function runCli(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', START, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  apiUrl: string;
  stop: () => Promise<number | null>;
}

/** Starts the CLI and resolves once the ready banner is printed. */
function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', START, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready banner within 90 s:\n${out}`)), 90_000);
    const check = () => {
      const api = /API\s+(http:\/\/\S+)/.exec(out);
      if (out.includes('Press Ctrl-C to stop.') && api) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({
          child,
          output: () => out,
          apiUrl: api[1]!,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the banner:\n${out}`));
    });
  });
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start (CLI)', () => {
  it('--help lists the options and exits 0; an unknown flag is one line and exit 2', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--no-collector', '--verbose', '--quiet', '--no-web', '--reset']) expect(help.stdout).toContain(flag);
    const bad = runCli(['--no-colector']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("✖ unknown option '--no-colector' (npm start -- --help lists the options)");
  });

  it('by default: the collector simulator runs, its requests go to the request log, the terminal gets summaries only', async () => {
    const s = await startCli(['--no-web']);
    const logFile = path.join(dataDir, 'requests.log');
    try {
      expect(s.output()).toContain(`Requests    ${logFile}   (summary here every 10 s`);
      expect(s.output()).toContain('collector simulator running');
      expect(s.output()).toContain('Portal      (not served)');
      // The local identity provider's demo user (docs/local-emulation.md#federated-sign-in).
      expect(s.output()).toMatch(/carla@acme\.example +Vigia-Demo-2026 +customer of Acme Logística through its own identity provider/);
      await expect.poll(() => readFileSync(logFile, 'utf8'), { timeout: 20_000 }).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/ingest\/heartbeats → 20\d \d+ ms$/m);
      expect((await fetch(`${s.apiUrl}/tenants`)).status).toBe(401);
      await expect.poll(() => readFileSync(logFile, 'utf8')).toContain('GET /tenants → 401');
      expect(s.output()).not.toContain('/ingest/');
      expect(s.output()).not.toContain('GET /tenants');
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(s.output()).toContain('Stopped. Your data stays in');
  });

  it('--no-collector --verbose: no simulator, each request on the terminal as well as in the log', async () => {
    // Same state folder: the demo data is already there, so this start is quick.
    const s = await startCli(['--no-web', '--no-collector', '--verbose']);
    try {
      expect(s.output()).toContain('demo data already present');
      expect(s.output()).not.toContain('collector simulator running');
      expect(s.output()).toContain('(each request also printed here)');
      expect((await fetch(`${s.apiUrl}/incidents`)).status).toBe(401);
      await expect.poll(() => s.output()).toContain('api GET /incidents → 401');
      expect(readFileSync(path.join(dataDir, 'requests.log'), 'utf8')).toMatch(/Z GET \/incidents → 401 \d+ ms: missing Authorization header$/m);
      expect(readFileSync(path.join(dataDir, 'requests.log'), 'utf8')).not.toContain('/ingest/');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });
});
