/**
 * `npm run check:aws`: one report of AWS's rules as the offline run enforces them (docs/local-emulation.md).
 *
 *  1. IAM at deploy time: every resource of every stage's templates and every post-deploy step of the
 *     workflows, evaluated against the role that deploys it (`./deploy-iam.ts`).
 *  2. IAM at run time: runs the walk (`test/integration/aws-rules-walk.test.ts`: every route and job as its
 *     function), then adds up what every test file that ran before it recorded in `test-results/aws-rules/`
 *     (the integration and conformance files, and the browser suite's files, when they ran: CI runs this after
 *     both).
 *  3. DynamoDB's rules on the engine's port: requests checked and refused per rule, and the hottest partition
 *     keys, from the same files (`scripts/local/dynamodb-rules/`).
 *  4. Where the Cognito and API Gateway/Lambda rules are proven (their tests are part of `npm test`).
 *
 * Prints each rule with how many calls and resources it evaluated and its denies; exits 1 when any IAM call or
 * resource is denied (the figures of refusals by DynamoDB's rules are the product holding under them, not
 * failures). Options: `--no-walk` (only add up existing files), `--json` (the report as JSON).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNTIME_REPORTS_DIR, type RuntimeIamReport } from './recorder.js';
import type { RulesProxyReport } from '../local/dynamodb-rules/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type FileReport = RuntimeIamReport & { file: string; dynamodb?: RulesProxyReport[] };

function readReports(): FileReport[] {
  if (!existsSync(RUNTIME_REPORTS_DIR)) return [];
  return readdirSync(RUNTIME_REPORTS_DIR)
    .filter((f) => f.startsWith('runtime-') && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(RUNTIME_REPORTS_DIR, f), 'utf8')) as FileReport);
}

function pad(s: string | number, n: number): string {
  return String(s).padEnd(n);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const out: string[] = [];
  const say = (l = '') => out.push(l);

  if (!args.includes('--no-walk')) {
    const walk = spawnSync('npx', ['vitest', 'run', '--project', 'integration', 'test/integration/aws-rules-walk.test.ts'], { cwd: ROOT, stdio: json ? 'ignore' : 'inherit', env: process.env });
    if (walk.status !== 0) {
      console.error('check:aws: the runtime IAM walk failed (see above)');
      return 1;
    }
  }

  const { deployIamReport, denyLines } = await import('./deploy-iam.js');
  const deploy = await deployIamReport();
  const files = readReports();

  const runtime = { files: files.length, calls: 0, requests: 0, unattributed: 0, principals: new Set<string>(), resources: new Set<string>(), denies: [] as string[] };
  const dynamo = { proxies: 0, requests: 0, conflicts: 0, singleConflicts: 0, throttledReads: 0, throttledWrites: 0, unprocessed: 0, engine: {} as Record<string, number>, hottest: [] as Array<{ key: string; units: number; file: string }> };
  for (const f of files) {
    runtime.calls += f.calls;
    runtime.requests += f.requests;
    runtime.unattributed += f.unattributed;
    for (const [p, v] of Object.entries(f.byPrincipal)) {
      runtime.principals.add(p);
      for (const u of v.used) runtime.resources.add(u.split(' ')[1] ?? u);
    }
    runtime.denies.push(...f.denies.map((d) => `${f.file}: ${d.message}`));
    for (const p of f.dynamodb ?? []) {
      dynamo.proxies += 1;
      const c = p.counters;
      dynamo.requests += c.requests;
      dynamo.conflicts += c.transactionConflicts;
      dynamo.singleConflicts += c.singleItemTransactionConflicts;
      dynamo.throttledReads += c.throttledReads;
      dynamo.throttledWrites += c.throttledWrites;
      dynamo.unprocessed += c.unprocessedByThrottling;
      for (const [k, n] of Object.entries(c.engineRefusals)) dynamo.engine[k] = (dynamo.engine[k] ?? 0) + n;
      for (const h of p.hottestPartitions.slice(0, 3)) {
        dynamo.hottest.push({ key: `${h.partition}: ${h.peakWriteUnitsPerSecond} WCU/s, ${h.peakReadUnitsPerSecond} RCU/s at peak`, units: Math.max(h.peakWriteUnitsPerSecond, h.peakReadUnitsPerSecond / 3), file: f.file });
      }
    }
  }
  dynamo.hottest.sort((a, b) => b.units - a.units);

  if (json) {
    console.log(JSON.stringify({ deploy, runtime: { ...runtime, principals: [...runtime.principals], resources: [...runtime.resources] }, dynamodb: dynamo }, null, 2));
    return deploy.contexts.some((c) => c.denies.length) || deploy.missingTypes.length || runtime.denies.length ? 1 : 0;
  }

  say('AWS rules, enforced offline (docs/local-emulation.md)');
  say('');
  say('1. IAM at deploy time — every resource of the templates and every post-deploy step, as the role that runs it');
  say(`   ${pad('context', 34)}${pad('resources', 11)}${pad('calls', 8)}denies`);
  for (const c of deploy.contexts) say(`   ${pad(c.context, 34)}${pad(c.resources, 11)}${pad(c.calls, 8)}${c.denies.length}`);
  if (deploy.missingTypes.length) say(`   resource types without CloudFormation permissions data: ${deploy.missingTypes.join(', ')}`);
  for (const l of denyLines(deploy)) say(`   DENY ${l}`);
  say('');
  say('2. IAM at run time — every AWS call a function made, against its role and boundary as synthesized (dev)');
  say(`   test files: ${runtime.files}; calls evaluated: ${runtime.calls} (${runtime.requests} IAM requests) by ${runtime.principals.size} principals on ${runtime.resources.size} resources; not in a function (seed, tests' own clients): ${runtime.unattributed}`);
  say(`   denies: ${runtime.denies.length}`);
  for (const d of [...new Set(runtime.denies)].slice(0, 20)) say(`   DENY ${d}`);
  say('');
  say('3. DynamoDB rules on the engine\'s port (every client) — what the product met and held under');
  say(`   engines: ${dynamo.proxies}; requests checked: ${dynamo.requests}`);
  say(`   transactions cancelled (TransactionConflict): ${dynamo.conflicts}; single writes refused (TransactionConflictException): ${dynamo.singleConflicts}`);
  say(`   throttled (ThrottlingException): reads ${dynamo.throttledReads}, writes ${dynamo.throttledWrites}; batch entries returned unprocessed: ${dynamo.unprocessed}`);
  say(`   refused by size/count limits: ${Object.entries(dynamo.engine).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  for (const h of dynamo.hottest.slice(0, 5)) say(`   hot partition: ${h.key} (${h.file})`);
  say('');
  say('4. Cognito and API Gateway/Lambda rules — proven by tests with clients this project did not write (npm test):');
  say('   Cognito write rules and the pre token generation event: test/conformance/cognito-write-rules.test.ts, test/unit/cognito-*.test.ts');
  say('   unknown methods, timeouts, memory and payload limits: test/integration/gateway.test.ts, test/integration/api-gateway-routes.test.ts');
  say('   DynamoDB rules with the AWS SDK and botocore: test/conformance/dynamodb-rules.test.ts; write paths under them: test/integration/dynamodb-rules-write-paths.test.ts');
  const failed = deploy.contexts.some((c) => c.denies.length > 0) || deploy.missingTypes.length > 0 || runtime.denies.length > 0;
  say('');
  say(failed ? 'FAILED: calls or resources AWS would deny (above)' : 'OK: 0 denies');
  console.log(out.join('\n'));
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`check:aws: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    process.exit(1);
  },
);
