/**
 * The pure parts of `npm start` (`./start.ts`): its command-line flags, the usage text, and the
 * per-window request summary the terminal shows instead of one line per request.
 *
 * Errors: {@link parseStartArgs} throws {@link StartUsageError} (one line, naming the flag) for an
 * unknown flag, a value given to a flag that takes none, a positional argument, or two flags that
 * contradict each other.
 */
import { parseArgs } from 'node:util';
import type { GatewayRequest } from './gateway.js';

/** What `npm start` was asked to do. */
export interface StartFlags {
  help: boolean;
  /** Delete the state folder first. */
  reset: boolean;
  /** `never` = serve web/dist as it is, `always` = rebuild, `auto` = rebuild when sources changed. */
  build: 'auto' | 'always' | 'never';
  /** Build and serve the portal at all. */
  web: boolean;
  seed: boolean;
  /** Run the collector simulator (false with `--no-collector`; `VIGIA_COLLECTOR=0` also turns it off). */
  collector: boolean;
  /** Terminal output of API requests: `summary` (default), `each` (`--verbose`) or `none` (`--quiet`). */
  requests: 'summary' | 'each' | 'none';
}

/** One flag of `npm start`, as the usage text lists it. */
interface FlagSpec {
  name: string;
  short?: string;
  help: string;
}

/** Every flag, in the order `--help` lists them. */
export const START_FLAGS: readonly FlagSpec[] = [
  { name: 'reset', help: 'delete the local state (the state folder) first: fresh user pool, table and demo data' },
  { name: 'no-build', help: 'serve web/dist as it is (fails if it was never built)' },
  { name: 'rebuild', help: 'always rebuild the portal' },
  { name: 'no-web', help: 'neither build nor serve the portal (API, user pool and DynamoDB only)' },
  { name: 'no-seed', help: 'do not create the demo users and data (also no collector simulator)' },
  { name: 'no-collector', help: 'do not run the collector simulator (heartbeats, outages, alarms, Office 365 events)' },
  { name: 'verbose', help: 'print every API request and collector event instead of a summary every 10 s' },
  { name: 'quiet', help: 'print neither requests nor summaries (the request log file is still written)' },
  { name: 'help', short: 'h', help: 'print this help and exit' },
];

/** Environment variables `npm start` reads (listed by `--help`). */
const START_VARIABLES: ReadonlyArray<readonly [string, string]> = [
  ['VIGIA_PORT_WEB, VIGIA_PORT_API', 'portal (5173) and API (3001) ports; 0 = any free port'],
  ['VIGIA_PORT_COGNITO, VIGIA_PORT_COGNITO_INTERNAL', 'user pool (9229) and cognito-local (9230) ports'],
  ['VIGIA_PORT_DYNAMODB, VIGIA_PORT_DYNAMODB_INTERNAL', 'DynamoDB port with its rules layer (8000) and the engine behind it (8001)'],
  ['VIGIA_DATA_DIR', 'state folder (default .local/ in the repository)'],
  ['VIGIA_COLLECTOR=0', 'same as --no-collector'],
  ['POWERTOOLS_LOG_LEVEL', 'log level of the API handlers (default WARN)'],
  ['VIGIA_DEBUG=1', 'print the stack trace of a start-up error'],
];

/** Time between two summary lines on the terminal, ms. */
export const SUMMARY_INTERVAL_MS = 10_000;

/** A command line `npm start` cannot run; the message is one line naming the flag. */
export class StartUsageError extends Error {
  override name = 'StartUsageError';
}

/** The `--help` text: usage, every flag, the environment variables. */
export function startUsage(): string {
  const flag = (f: FlagSpec) => `${f.short ? `-${f.short}, ` : '    '}--${f.name}`;
  const width = Math.max(...START_FLAGS.map((f) => flag(f).length)) + 2;
  const varWidth = Math.max(...START_VARIABLES.map(([v]) => v.length)) + 2;
  return [
    'Usage: npm start -- [options]',
    '',
    'Starts the whole system offline (DynamoDB engine, Cognito user pool, API, demo data, portal).',
    '',
    'Options:',
    ...START_FLAGS.map((f) => `  ${flag(f).padEnd(width)}${f.help}`),
    '',
    'Environment:',
    ...START_VARIABLES.map(([v, h]) => `  ${v.padEnd(varWidth)}${h}`),
    '',
    'See docs/local-emulation.md for what each local component stands in for.',
  ].join('\n');
}

/**
 * Parses `npm start`'s arguments (what follows `npm start --`).
 * @throws StartUsageError for an unknown flag, a value on a boolean flag, a positional argument,
 *   `--verbose` with `--quiet`, or `--rebuild` with `--no-build`.
 */
export function parseStartArgs(argv: readonly string[]): StartFlags {
  const options = Object.fromEntries(
    START_FLAGS.map((f) => [f.name, { type: 'boolean' as const, ...(f.short ? { short: f.short } : {}) }]),
  );
  let values: Record<string, boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }) as {
      values: Record<string, boolean | undefined>;
    });
  } catch (e) {
    throw new StartUsageError(usageMessage(e));
  }
  const on = (name: string) => values[name] === true;
  if (on('verbose') && on('quiet')) throw new StartUsageError('--verbose and --quiet contradict each other: pick one');
  if (on('rebuild') && on('no-build')) throw new StartUsageError('--rebuild and --no-build contradict each other: pick one');
  return {
    help: on('help'),
    reset: on('reset'),
    build: on('no-build') ? 'never' : on('rebuild') ? 'always' : 'auto',
    web: !on('no-web'),
    seed: !on('no-seed'),
    collector: !on('no-collector'),
    requests: on('verbose') ? 'each' : on('quiet') ? 'none' : 'summary',
  };
}

/** Node's parseArgs errors as one line without Node's own hints about `--` and positionals. */
function usageMessage(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const option = /'([^']+)'/.exec(err.message ?? '')?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option ?? '?'}' (npm start -- --help lists the options)`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${option ?? '?'}': npm start takes flags only (npm start -- --help)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `option '${option ?? '?'}' takes no value (npm start -- --help)`;
    default:
      return err.message ?? String(e);
  }
}

/** Request counts over one summary window. */
export interface RequestCounts {
  total: number;
  /** Requests to the collector (IAM-authorised) routes. */
  ingest: number;
  /** Answers 400–499 (refused: bad token, signature, validation, not found). */
  refused: number;
  /** Answers 500 and above (the handler or the gateway failed). */
  errors: number;
}

/** An empty window. */
export const NO_REQUESTS: Readonly<RequestCounts> = Object.freeze({ total: 0, ingest: 0, refused: 0, errors: 0 });

/** The counts after one more request. */
export function countRequest(c: RequestCounts, r: Pick<GatewayRequest, 'status' | 'auth'>): RequestCounts {
  return {
    total: c.total + 1,
    ingest: c.ingest + (r.auth === 'iam' ? 1 : 0),
    refused: c.refused + (r.status >= 400 && r.status < 500 ? 1 : 0),
    errors: c.errors + (r.status >= 500 ? 1 : 0),
  };
}

/**
 * The summary line of a window, e.g. `api: 42 requests in the last 10 s (38 ingest), 0 errors`
 * (`, 3 refused (4xx)` added when some were refused); `null` for an empty window (nothing printed).
 * @param windowMs length of the window, ms (shown rounded to whole seconds).
 */
export function formatRequestSummary(c: RequestCounts, windowMs: number): string | null {
  if (c.total === 0) return null;
  const secs = Math.round(windowMs / 1000);
  const requests = `${c.total} request${c.total === 1 ? '' : 's'}`;
  const ingest = c.ingest > 0 ? ` (${c.ingest} ingest)` : '';
  const errors = `${c.errors} error${c.errors === 1 ? '' : 's'}`;
  const refused = c.refused > 0 ? `, ${c.refused} refused (4xx)` : '';
  return `api: ${requests} in the last ${secs} s${ingest}, ${errors}${refused}`;
}
