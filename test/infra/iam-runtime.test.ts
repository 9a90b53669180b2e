/**
 * The runtime IAM check's pieces against the synthesized dev stage (scripts/aws-rules/: templates, iam,
 * aws-calls, recorder): the requests a call makes as IAM sees them, and the evaluator's answers — including the
 * denies this project had before its grants were derived from the access patterns (a role without the GSI3 grant,
 * the account function with a read-only role), and the one it missed while it set no `dynamodb:LeadingKeys` on
 * a Query of an index (the monthly report job's read of GSI2 `SOCQUEUE`), so the check is shown to find them.
 */
import { describe, expect, it } from 'vitest';
import { describeCall, type StageResourceMap } from '../../scripts/aws-rules/aws-calls.js';
import { accessDeniedMessage, evaluate, type IamPrincipal } from '../../scripts/aws-rules/iam.js';
import { localStagePolicies } from '../../scripts/aws-rules/recorder.js';

const SLOW = 60_000;
const map: StageResourceMap = {
  account: '111111111111',
  region: 'us-east-1',
  tableArn: () => 'arn:aws:dynamodb:us-east-1:111111111111:table/vigia-dev-main',
  tableStreamArn: 'arn:aws:dynamodb:us-east-1:111111111111:table/vigia-dev-main/stream/x',
  userPoolArn: 'arn:aws:cognito-idp:us-east-1:111111111111:userpool/us-east-1_x',
  queueArn: (n) => `arn:aws:sqs:us-east-1:111111111111:${n}`,
  secretName: (n) => n.replace(/^vigia\/local\//, 'vigia/dev/'),
  bucketName: (n) => n,
};

/** The principal with every policy statement's resources filtered by `keep`. */
function withResources(p: IamPrincipal, keep: (resource: string, actions: string[]) => boolean): IamPrincipal {
  return {
    ...p,
    identityPolicies: p.identityPolicies.map((ip) => ({
      ...ip,
      policy: {
        ...ip.policy,
        Statement: ([] as Array<Record<string, unknown>>).concat(ip.policy.Statement as never).flatMap((st) => {
          const actions = ([] as string[]).concat(st.Action as string);
          const resources = ([] as string[]).concat(st.Resource as string).filter((r) => keep(r, actions));
          return resources.length ? [{ ...st, Resource: resources }] : [];
        }),
      },
    })),
  };
}

describe('what IAM sees of a call', () => {
  it('DynamoDB: a transaction is one request per element, named by its kind; the partition key is dynamodb:LeadingKeys', () => {
    const call = describeCall(
      {
        service: 'dynamodb',
        target: 'DynamoDB_20120810.TransactWriteItems',
        payload: JSON.stringify({
          TransactItems: [
            { Put: { TableName: 'vigia-local-main', Item: { PK: { S: 'TENANT#acme' }, SK: { S: 'X' } } } },
            { Update: { TableName: 'vigia-local-main', Key: { PK: { S: 'TENANT#acme#STATS' }, SK: { S: 'S' } } } },
            { ConditionCheck: { TableName: 'vigia-local-main', Key: { PK: { S: 'TENANT#acme' }, SK: { S: 'Y' } } } },
          ],
        }),
      },
      map,
    );
    expect(call.requests.map((r) => r.action)).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem']);
    expect(call.requests[1]!.context).toEqual({ 'dynamodb:LeadingKeys': ['TENANT#acme#STATS'] });
  });

  it('DynamoDB: a Query of an index is on the index ARN; of the table, its PK equality is the leading key', () => {
    const q = (input: object) => describeCall({ service: 'dynamodb', target: 'DynamoDB_20120810.Query', payload: JSON.stringify({ TableName: 'vigia-local-main', ...input }) }, map).requests[0]!;
    expect(q({ IndexName: 'GSI3', KeyConditionExpression: 'GSI3PK = :p', ExpressionAttributeValues: { ':p': { S: 'x' } } }).resource).toBe('arn:aws:dynamodb:us-east-1:111111111111:table/vigia-dev-main/index/GSI3');
    expect(q({ KeyConditionExpression: '#k = :p AND SK > :s', ExpressionAttributeNames: { '#k': 'PK' }, ExpressionAttributeValues: { ':p': { S: 'TENANT#a' }, ':s': { S: '' } }, Select: 'COUNT' }).context).toEqual({
      'dynamodb:LeadingKeys': ['TENANT#a'],
      'dynamodb:Select': 'COUNT',
    });
  });

  it('DynamoDB: a Query of an index has the index\'s partition key value as dynamodb:LeadingKeys; a Scan has none (AWS sets none for Scan)', () => {
    const req = (operation: string, input: object) => describeCall({ service: 'dynamodb', target: `DynamoDB_20120810.${operation}`, payload: JSON.stringify({ TableName: 'vigia-local-main', ...input }) }, map).requests;
    // The SOC queue's boundary hour as lambdas/data/reports.ts read it before (GSI2, every tenant's queue).
    const soc = req('Query', { IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :q AND GSI2SK BETWEEN :lo AND :hi', FilterExpression: 'tenantId = :t', ExpressionAttributeValues: { ':q': { S: 'SOCQUEUE' }, ':lo': { S: '2026-10-31T23' }, ':hi': { S: '2026-10-31T23:59:59.999Z' }, ':t': { S: 'acme' } } });
    expect(soc).toEqual([{ action: 'dynamodb:Query', resource: `${map.tableArn('')}/index/GSI2`, context: { 'dynamodb:LeadingKeys': ['SOCQUEUE'] } }]);
    // The index's own partition key, not the table's: GSI4 is sorted by GSI2SK, and a sort key equality is not a leading key.
    expect(req('Query', { IndexName: 'GSI4', KeyConditionExpression: '#s = :s AND #p = :p', ExpressionAttributeNames: { '#p': 'GSI4PK', '#s': 'GSI2SK' }, ExpressionAttributeValues: { ':p': { S: 'TENANT#acme#SOCQUEUE' }, ':s': { S: 'x' } } })[0]!.context).toEqual({ 'dynamodb:LeadingKeys': ['TENANT#acme#SOCQUEUE'] });
    // The legacy KeyConditions name it the same way.
    expect(req('Query', { IndexName: 'GSI1', KeyConditions: { GSI1PK: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'TENANT#acme#INCIDENTS' }] } } })[0]!.context).toEqual({ 'dynamodb:LeadingKeys': ['TENANT#acme#INCIDENTS'] });
    expect(req('Scan', { IndexName: 'GSI2', Select: 'COUNT' })[0]!.context).toEqual({ 'dynamodb:Select': 'COUNT' });
    expect(req('Scan', {})[0]!.context).toEqual({});
    // An index the table does not have: its leading key cannot be told, so the call is not left unevaluated.
    expect(() => req('Query', { IndexName: 'GSI9', KeyConditionExpression: 'GSI9PK = :p', ExpressionAttributeValues: { ':p': { S: 'x' } } })).toThrow(/no index GSI9/);
    // A batch: one request per table, with that table's partition keys.
    const batch = describeCall({ service: 'dynamodb', target: 'DynamoDB_20120810.BatchGetItem', payload: JSON.stringify({ RequestItems: { a: { Keys: [{ PK: { S: 'TENANT#a' }, SK: { S: '1' } }, { PK: { S: 'TENANT#a' }, SK: { S: '2' } }] }, b: { Keys: [{ PK: { S: 'TENANTS' }, SK: { S: 'x' } }] } } }) }, map).requests;
    expect(batch.map((r) => r.context)).toEqual([{ 'dynamodb:LeadingKeys': ['TENANT#a'] }, { 'dynamodb:LeadingKeys': ['TENANTS'] }]);
  });

  it('SES v2 SendEmail: the address or its domain identity (either), Secrets Manager: the stage\'s secret name', () => {
    const ses = describeCall({ service: 'email', method: 'POST', path: '/v2/email/outbound-emails', payload: JSON.stringify({ FromEmailAddress: 'Vigía <n@vigia.example>' }) }, map);
    expect(ses.requests.map((r) => [r.resource, r.anyOf])).toEqual([
      ['arn:aws:ses:us-east-1:111111111111:identity/n@vigia.example', 'identity'],
      ['arn:aws:ses:us-east-1:111111111111:identity/vigia.example', 'identity'],
    ]);
    const secret = describeCall({ service: 'secretsmanager', target: 'secretsmanager.GetSecretValue', payload: JSON.stringify({ SecretId: 'vigia/local/identity-providers/acme' }) }, map);
    expect(secret.requests[0]!.resource).toBe('arn:aws:secretsmanager:us-east-1:111111111111:secret:vigia/dev/identity-providers/acme-AbCdEf');
  });

  it('a service with no mapping is an error, never an unevaluated call', () => {
    expect(() => describeCall({ service: 'kinesis', target: 'Kinesis_20131202.PutRecord', payload: '{}' }, map)).toThrow(/no IAM mapping for service kinesis/);
  });
});

describe('the dev stage\'s roles, evaluated', () => {
  it('incidents may Query GSI3 (the status filter); the role as it was (GSI1 and GSI2 only) is denied, in AWS\'s words', async () => {
    const p = await localStagePolicies();
    const incidents = p.functions['vigia-dev-incidents']!;
    const request = { action: 'dynamodb:Query', resource: `${p.tableArn}/index/GSI3` };
    expect((await evaluate(incidents, request)).allowed).toBe(true);
    const before = withResources(incidents, (r) => !r.endsWith('/index/GSI3'));
    const d = await evaluate(before, request);
    expect(d).toMatchObject({ allowed: false, result: 'ImplicitlyDenied' });
    expect(accessDeniedMessage(before, request, d)).toBe(
      `User: arn:aws:sts::111111111111:assumed-role/${incidents.arn.split('/').pop()}/vigia-dev-incidents is not authorized to perform: dynamodb:Query on resource: ${p.tableArn}/index/GSI3 because no identity-based policy allows the dynamodb:Query action`,
    );
  }, SLOW);

  it('account may PutItem (its read marker) and nothing else of the writes, and may not Query GSI2 or GSI3 (not its patterns)', async () => {
    const p = await localStagePolicies();
    const account = p.functions['vigia-dev-account']!;
    expect((await evaluate(account, { action: 'dynamodb:PutItem', resource: p.tableArn })).allowed).toBe(true);
    for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) expect((await evaluate(account, { action, resource: p.tableArn })).allowed, action).toBe(false);
    // Its one pattern is on GSI1 (access-patterns.ts); the devices function now reads every index (the alarm console's
    // entries use GSI1-GSI4), so the denial of indexes outside a function's patterns is proven on account.
    expect((await evaluate(account, { action: 'dynamodb:Query', resource: `${p.tableArn}/index/GSI1` })).allowed).toBe(true);
    for (const i of ['GSI2', 'GSI3']) expect((await evaluate(account, { action: 'dynamodb:Query', resource: `${p.tableArn}/index/${i}` })).allowed, i).toBe(false);
  }, SLOW);

  it('the digest may only touch its own partitions (dynamodb:LeadingKeys condition)', async () => {
    const p = await localStagePolicies();
    const digest = p.functions['vigia-dev-notification-digest']!;
    const d = await evaluate(digest, { action: 'dynamodb:Query', resource: p.tableArn, context: { 'dynamodb:LeadingKeys': ['TENANT#acme#INCIDENTS-NOT-A-DIGEST-PARTITION'] } });
    expect(d.allowed).toBe(false);
  }, SLOW);

  it('the monthly report job (leading keys TENANT#*) is denied the SOC queue of every tenant (GSI2 SOCQUEUE) and allowed its tenant\'s (GSI4), as AWS evaluates a Query of an index', async () => {
    const p = await localStagePolicies();
    const job = p.functions['vigia-dev-monthly-report-mail']!;
    const stage = { ...map, tableArn: () => p.tableArn };
    const query = (IndexName: string, pkName: string, pk: string) =>
      describeCall({ service: 'dynamodb', target: 'DynamoDB_20120810.Query', payload: JSON.stringify({ TableName: 'vigia-local-main', IndexName, KeyConditionExpression: `${pkName} = :q AND GSI2SK BETWEEN :lo AND :hi`, ExpressionAttributeValues: { ':q': { S: pk }, ':lo': { S: '2026-10-31T23' }, ':hi': { S: '2026-10-31T23:59:59.999Z' } } }) }, stage).requests[0]!;
    // The boundary hour as lambdas/data/reports.ts read it before: denied (the check set no leading key on an index Query, so it passed offline).
    const before = query('GSI2', 'GSI2PK', 'SOCQUEUE');
    const denied = await evaluate(job, before);
    expect(denied).toMatchObject({ allowed: false, result: 'ImplicitlyDenied' });
    expect(accessDeniedMessage(job, before, denied)).toContain(`is not authorized to perform: dynamodb:Query on resource: ${p.tableArn}/index/GSI2 because no identity-based policy allows the dynamodb:Query action`);
    expect((await evaluate(job, { ...before, context: {} })).allowed).toBe(true); // what the check evaluated before
    // As it reads it now: the tenant's own queue; and the below-SLA index of the tenant, on GSI2.
    expect((await evaluate(job, query('GSI4', 'GSI4PK', 'TENANT#acme#SOCQUEUE'))).allowed).toBe(true);
    expect((await evaluate(job, query('GSI2', 'GSI2PK', 'TENANT#acme#BELOWSLA'))).allowed).toBe(true);
  }, SLOW);

  it('collectors may invoke the ingest routes only', async () => {
    const p = await localStagePolicies();
    const c = p.collector!;
    expect((await evaluate(c, { action: 'execute-api:Invoke', resource: `${p.apiArnPrefix}/POST/ingest/heartbeats` })).allowed).toBe(true);
    expect((await evaluate(c, { action: 'execute-api:Invoke', resource: `${p.apiArnPrefix}/GET/incidents` })).allowed).toBe(false);
  }, SLOW);
});
