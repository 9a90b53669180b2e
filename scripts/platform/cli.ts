/**
 * Shared command-line plumbing of the platform scripts (`scripts/platform/*.ts`, run with tsx):
 * argument parsing with `node:util` `parseArgs` (strict: unknown options are errors), `--help`, progress
 * lines on stderr (stdout stays machine-readable), and one exit path that prints a one-line error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';

/** Raised for a bad command line; `runCli` prints it with the usage hint and exits with status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** A parsed command line: option values (strings/booleans) and positionals. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Parses `argv` (without node and script) against `options` (a `--help`/`-h` flag is always added).
 * @returns null when help was requested (the caller prints `usage`)
 * @throws UsageError on unknown options or missing values
 */
export function parse(argv: readonly string[], options: Options): Parsed | null {
  try {
    const r = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (r.values.help) return null;
    return { values: r.values as Parsed['values'], positionals: r.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A required string option. @throws UsageError when missing or empty */
export function required(p: Parsed, name: string): string {
  const v = p.values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

/** An optional string option (undefined when absent or empty). */
export function optional(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** Progress line on stderr, prefixed with the script name. */
export function progress(script: string): (line: string) => void {
  return (line) => process.stderr.write(`[${script}] ${line}\n`);
}

/**
 * Runs `main` when `moduleUrl` is the entry script: prints `usage` for `--help`, a one-line error for
 * failures (exit 1; usage errors exit 2).
 */
export function runCli(moduleUrl: string, usage: string, main: (argv: string[]) => Promise<void | 'help'>): void {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  main(process.argv.slice(2)).then(
    (r) => {
      if (r === 'help') process.stdout.write(`${usage.trim()}\n`);
    },
    (e: unknown) => {
      const err = e as Error;
      process.stderr.write(`error: ${err.message}\n`);
      if (err instanceof UsageError) process.stderr.write('(run with --help for usage)\n');
      process.exitCode = err instanceof UsageError ? 2 : 1;
    },
  );
}
