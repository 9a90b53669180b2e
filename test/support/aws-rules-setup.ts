/**
 * Vitest setup of the projects that run the Lambda code against the local engines (integration, conformance):
 * after each file, the runtime IAM check (scripts/aws-rules/recorder.ts) must have seen no call that the
 * calling function's role would be denied on AWS. A deny fails the file, naming the function, the action, the
 * resource and AWS's reason; the file's figures (IAM, and the DynamoDB rules' counters of every engine it
 * started) are written to `test-results/aws-rules/` for `npm run check:aws`.
 */
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { writeRuntimeReport } from '../../scripts/aws-rules/recorder.js';
import { dynamoRulesReport } from '../../scripts/local/dynamodb-rules/index.js';

afterAll(() => {
  const file = expect.getState().testPath ?? `pid-${process.pid}`;
  const report = writeRuntimeReport(path.relative(process.cwd(), file), { dynamodb: dynamoRulesReport().proxies });
  expect(report.denies.map((d) => d.message), 'calls AWS would deny (IAM on every call, docs/local-emulation.md#iam)').toEqual([]);
});
