/** `npm start`'s pure parts: flags, usage text, the request summary, and the settings read from the environment. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, DEFAULT_PORTS, LOCAL_COLLECTOR_CREDENTIAL, localSettingsFromEnv, LocalSettingError } from '../../scripts/local/config.js';
import { formatGatewayRequest } from '../../scripts/local/gateway.js';
import {
  countRequest,
  formatRequestSummary,
  NO_REQUESTS,
  parseStartArgs,
  START_FLAGS,
  startUsage,
  StartUsageError,
  type RequestCounts,
} from '../../scripts/local/start-options.js';

describe('parseStartArgs', () => {
  it('defaults: build when stale, serve the portal, seed, collector, a summary of requests', () => {
    expect(parseStartArgs([])).toEqual({
      help: false,
      reset: false,
      build: 'auto',
      web: true,
      seed: true,
      collector: true,
      requests: 'summary',
    });
  });

  it('accepts every documented flag, --no-collector included', () => {
    expect(parseStartArgs(['--no-collector']).collector).toBe(false);
    expect(parseStartArgs(['--no-build']).build).toBe('never');
    expect(parseStartArgs(['--rebuild']).build).toBe('always');
    expect(parseStartArgs(['--no-web']).web).toBe(false);
    expect(parseStartArgs(['--no-seed']).seed).toBe(false);
    expect(parseStartArgs(['--reset']).reset).toBe(true);
    expect(parseStartArgs(['--verbose']).requests).toBe('each');
    expect(parseStartArgs(['--quiet']).requests).toBe('none');
    expect(parseStartArgs(['--help']).help).toBe(true);
    expect(parseStartArgs(['-h']).help).toBe(true);
    expect(parseStartArgs(['--reset', '--no-collector', '--verbose', '--no-build'])).toMatchObject({
      reset: true,
      collector: false,
      requests: 'each',
      build: 'never',
    });
  });

  it('refuses unknown flags, values, positionals and contradictions with one line naming the argument', () => {
    const refused = (argv: string[]) => {
      try {
        parseStartArgs(argv);
      } catch (e) {
        expect(e).toBeInstanceOf(StartUsageError);
        return (e as Error).message;
      }
      throw new Error(`accepted ${argv.join(' ')}`);
    };
    expect(refused(['--no-colector'])).toBe("unknown option '--no-colector' (npm start -- --help lists the options)");
    expect(refused(['--reset=yes'])).toContain("'--reset' takes no value");
    expect(refused(['fresh'])).toContain("unexpected argument 'fresh'");
    expect(refused(['--verbose', '--quiet'])).toContain('contradict');
    expect(refused(['--rebuild', '--no-build'])).toContain('contradict');
    for (const argv of [['--no-colector'], ['fresh']]) expect(refused(argv)).not.toContain('\n');
  });

  it('--help lists every flag and the environment variables', () => {
    const usage = startUsage();
    for (const f of START_FLAGS) expect(usage).toContain(`--${f.name}`);
    expect(usage).toContain('VIGIA_PORT_API');
    expect(usage).toContain('VIGIA_DATA_DIR');
  });
});

describe('request summary', () => {
  const add = (c: RequestCounts, status: number, auth?: 'iam' | 'cognito') => countRequest(c, { status, ...(auth ? { auth } : {}) });

  it('counts ingest requests, refusals (4xx) and errors (5xx)', () => {
    let c = { ...NO_REQUESTS };
    for (let i = 0; i < 38; i++) c = add(c, 202, 'iam');
    c = add(c, 200, 'cognito');
    c = add(c, 401, 'cognito');
    c = add(c, 404);
    c = add(c, 502, 'cognito');
    expect(c).toEqual({ total: 42, ingest: 38, refused: 2, errors: 1 });
    expect(formatRequestSummary(c, 10_000)).toBe('api: 42 requests in the last 10 s (38 ingest), 1 error, 2 refused (4xx)');
  });

  it('prints the plain form when all went well, and nothing for an empty window', () => {
    expect(formatRequestSummary({ total: 42, ingest: 42, refused: 0, errors: 0 }, 10_004)).toBe('api: 42 requests in the last 10 s (42 ingest), 0 errors');
    expect(formatRequestSummary({ total: 1, ingest: 0, refused: 0, errors: 0 }, 9_600)).toBe('api: 1 request in the last 10 s, 0 errors');
    expect(formatRequestSummary(NO_REQUESTS, 10_000)).toBeNull();
  });

  it('one log line per request, with the reason of a refusal', () => {
    expect(formatGatewayRequest({ method: 'GET', url: '/incidents?limit=20', status: 200, ms: 12, auth: 'cognito' })).toBe('GET /incidents?limit=20 → 200 12 ms');
    expect(formatGatewayRequest({ method: 'POST', url: '/ingest/heartbeats', status: 403, ms: 3, auth: 'iam', reason: 'signature does not match' })).toBe(
      'POST /ingest/heartbeats → 403 3 ms: signature does not match',
    );
  });
});

describe('localSettingsFromEnv', () => {
  it('defaults to the documented ports, .local/ and the collector on', () => {
    const s = localSettingsFromEnv({});
    expect(s.ports).toEqual(DEFAULT_PORTS);
    expect(s.dataDir).toBe(DEFAULT_DATA_DIR);
    expect(s.collector).toBe(true);
    expect(s.collectorCredential).toEqual(LOCAL_COLLECTOR_CREDENTIAL);
    expect(s.logLevel).toBe('WARN');
  });

  it('reads ports, the state folder, VIGIA_COLLECTOR=0, the collector key and the log level', () => {
    const s = localSettingsFromEnv(
      {
        VIGIA_PORT_API: '0',
        VIGIA_PORT_WEB: '8080',
        VIGIA_DATA_DIR: 'tmp/state',
        VIGIA_COLLECTOR: '0',
        VIGIA_COLLECTOR_ACCESS_KEY_ID: 'AKIAOTHER',
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
      },
      '/home/dev',
    );
    expect(s.ports).toMatchObject({ api: 0, web: 8080, dynamodb: DEFAULT_PORTS.dynamodb });
    expect(s.dataDir).toBe(path.resolve('/home/dev', 'tmp/state'));
    expect(s.collector).toBe(false);
    expect(s.collectorCredential.accessKeyId).toBe('AKIAOTHER');
    expect(s.collectorCredential.secretAccessKey).toBe(LOCAL_COLLECTOR_CREDENTIAL.secretAccessKey);
    expect(s.logLevel).toBe('DEBUG');
  });

  it('refuses a port that is not an integer in 0–65535 and an unknown log level', () => {
    for (const bad of ['abc', '-1', '65536', '80.5', '1e3']) {
      expect(() => localSettingsFromEnv({ VIGIA_PORT_API: bad })).toThrow(LocalSettingError);
    }
    expect(() => localSettingsFromEnv({ VIGIA_PORT_API: 'abc' })).toThrow('VIGIA_PORT_API=abc is not a valid port');
    expect(() => localSettingsFromEnv({ POWERTOOLS_LOG_LEVEL: 'LOUD' })).toThrow('POWERTOOLS_LOG_LEVEL=LOUD');
  });
});
