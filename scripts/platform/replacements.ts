/**
 * CI check on `cdk diff` output: fails when a change would replace, destroy or drop a stateful resource (a
 * Cognito user pool or a DynamoDB table, `GUARDED_RESOURCE_TYPES` of `infra/stack-policy.ts`). The prod stack
 * policy refuses such a replacement at deploy time; this check says so before anyone approves the deploy
 * (docs/platform.md#replacements).
 *
 *   npx cdk diff -c stage=prod ... 2>&1 | npx tsx scripts/platform/replacements.ts
 *   npx tsx scripts/platform/replacements.ts --diff cdk-diff.txt [--allow-removal]
 *
 * Input: the text `cdk diff` prints (CDK CLI 2.11xx; ANSI colours are stripped). A resource line reads
 * `[~] AWS::DynamoDB::Table <construct path> <logical id> replace`: prefix `[+]` added, `[~]` updated,
 * `[-]` removed, `[←]` imported; impact `replace`, `may be replaced`, `destroy`, `orphan` or none. Stack
 * sections start with `Stack <name>`.
 * Exit status: 0 no guarded change (one JSON line `{ ok: true, findings: [] }` on stdout), 1 with one
 * line per finding on stderr and `{ ok: false, findings }` on stdout, 2 on a bad command line.
 */
import { readFileSync } from 'node:fs';
import { GUARDED_RESOURCE_TYPES } from '../../infra/stack-policy.js';
import { optional, parse, runCli } from './cli.js';

export const USAGE = `
Usage: npx cdk diff ... 2>&1 | tsx scripts/platform/replacements.ts [--allow-removal]
       tsx scripts/platform/replacements.ts --diff <file> [--allow-removal]

Fails (exit 1) when the cdk diff would replace, destroy or (without --allow-removal) orphan a Cognito user
pool or DynamoDB table.

Options:
  --diff           file with the cdk diff output (default: standard input)
  --allow-removal  accept removing a guarded resource from its stack while keeping it (impact "orphan"),
                   as the table-restore runbook does
  -h, --help       this text
`;

/** What a diff would do to a resource. */
export type Impact = 'replace' | 'may be replaced' | 'destroy' | 'orphan' | 'import' | 'none';

/** One resource line of a `cdk diff`. */
export interface ResourceChange {
  /** Stack section the line belongs to (`Vigia-prod-Data`), or `?` before any `Stack` header. */
  readonly stack: string;
  readonly prefix: '+' | '~' | '-' | '←';
  readonly type: string;
  /** Logical id (last word before the impact). */
  readonly logicalId: string;
  readonly impact: Impact;
}

/** A refused change: the resource and why. */
export interface Finding extends ResourceChange {
  readonly reason: string;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const RESOURCE_LINE = /^\[([+~\-←])\]\s+((?:AWS|Custom|Alexa)::\S+)\s+(.+)$/;
const IMPACTS: readonly Impact[] = ['may be replaced', 'replace', 'destroy', 'orphan', 'import'];

/** Parses the resource lines of `cdk diff` output (other lines ignored). */
export function parseDiff(text: string): ResourceChange[] {
  const out: ResourceChange[] = [];
  let stack = '?';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(ANSI, '').trimEnd();
    const header = /^Stack (\S+)/.exec(line);
    if (header) {
      stack = header[1]!;
      continue;
    }
    const m = RESOURCE_LINE.exec(line.trimStart());
    if (!m) continue;
    let rest = m[3]!.replace(/\s*\(OR move .*\)$/, '').trim();
    let impact: Impact = 'none';
    for (const i of IMPACTS) {
      if (rest.endsWith(` ${i}`)) {
        impact = i;
        rest = rest.slice(0, -i.length - 1).trim();
        break;
      }
    }
    const words = rest.split(/\s+/);
    out.push({ stack, prefix: m[1] as ResourceChange['prefix'], type: m[2]!, logicalId: words[words.length - 1]!, impact });
  }
  return out;
}

/**
 * The changes that would lose a guarded resource: replacement (certain or possible), destruction, removal
 * (`[-]`) unless `allowRemoval` and the resource is kept (`orphan`).
 */
export function guardedFindings(changes: readonly ResourceChange[], options: { allowRemoval?: boolean } = {}): Finding[] {
  const guarded = new Set<string>(GUARDED_RESOURCE_TYPES);
  const findings: Finding[] = [];
  for (const c of changes) {
    if (!guarded.has(c.type)) continue;
    if (c.impact === 'replace' || c.impact === 'may be replaced') {
      findings.push({ ...c, reason: `${c.impact === 'replace' ? 'would be replaced' : 'may be replaced'}: a new, empty resource; the old one is retained but no longer used` });
    } else if (c.impact === 'destroy') {
      findings.push({ ...c, reason: 'would be deleted with its data' });
    } else if (c.prefix === '-' && !(options.allowRemoval && c.impact === 'orphan')) {
      findings.push({ ...c, reason: 'would be removed from its stack (pass --allow-removal for the restore runbook)' });
    }
  }
  return findings;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, { diff: { type: 'string' }, 'allow-removal': { type: 'boolean' } });
  if (!p) return 'help';
  const file = optional(p, 'diff');
  const text = file ? readFileSync(file, 'utf8') : await readStdin();
  const findings = guardedFindings(parseDiff(text), { allowRemoval: p.values['allow-removal'] === true });
  for (const f of findings) process.stderr.write(`[replacements] ${f.stack} ${f.type} ${f.logicalId}: ${f.reason}\n`);
  process.stdout.write(`${JSON.stringify({ ok: findings.length === 0, findings })}\n`);
  if (findings.length > 0) process.exitCode = 1;
}

runCli(import.meta.url, USAGE, main);
