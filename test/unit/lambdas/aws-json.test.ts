/**
 * The AWS JSON 1.1 caller of the Cognito and Secrets Manager ports (`awsJson11` / `awsErrorCode`,
 * lambdas/data/table/aws-lite.ts), with a fake aws-lite client that records each request and rejects the way
 * aws-lite does (an Error carrying the response body's `__type` and `message`): the request each port sends
 * (target header, content type, body with the common members), the parsed response, and the error `name`.
 */
import { describe, expect, it } from 'vitest';
import { awsErrorCode, awsJson11, type AwsLiteClient } from '../../../lambdas/data/table/aws-lite.js';
import { cognitoIdp } from '../../../lambdas/data/cognito-users.js';

type Request = Parameters<AwsLiteClient>[0];

function fakeClient(answer: (req: Request) => unknown) {
  const requests: Request[] = [];
  const client: AwsLiteClient = async (req) => {
    requests.push(req);
    return { statusCode: 200, payload: answer(req) };
  };
  return { requests, connect: () => Promise.resolve(client) };
}

/** An error as aws-lite rejects with for a JSON error body (`__type`, `message`), `name` = the raw `__type`. */
const awsError = (type: string, message: string) => Object.assign(new Error(message), { __type: type, name: type, statusCode: 400 });

describe('awsJson11', () => {
  it('sends one signed JSON 1.1 request per call: target header, content type, the common members under the input', async () => {
    const fake = fakeClient(() => ({ User: { Username: 'ana' } }));
    const call = awsJson11({ ...cognitoIdp({ region: 'eu-west-1' }), common: { UserPoolId: 'eu-west-1_pool' }, connect: fake.connect });
    const out = await call('AdminGetUser', { Username: 'ana' });
    await call('UpdateUserPoolClient', { UserPoolId: 'own', ClientId: 'c' });
    expect(out).toEqual({ User: { Username: 'ana' } });
    expect(fake.requests[0]).toEqual({
      service: 'cognito-idp',
      headers: { 'X-Amz-Target': 'AWSCognitoIdentityProviderService.AdminGetUser', 'content-type': 'application/x-amz-json-1.1' },
      payload: JSON.stringify({ UserPoolId: 'eu-west-1_pool', Username: 'ana' }),
      awsjson: false,
    });
    // The operation's own member wins over the common one.
    expect(JSON.parse(fake.requests[1]!.payload)).toEqual({ UserPoolId: 'own', ClientId: 'c' });
  });

  it('targets `<prefix>.<Operation>` of any service and answers {} for an empty response body', async () => {
    const fake = fakeClient(() => undefined);
    const call = awsJson11({ service: 'secretsmanager', targetPrefix: 'secretsmanager', region: 'eu-west-1', connect: fake.connect });
    expect(await call('DeleteSecret', { SecretId: 's', ForceDeleteWithoutRecovery: true })).toEqual({});
    expect(fake.requests[0]!.service).toBe('secretsmanager');
    expect(fake.requests[0]!.headers['X-Amz-Target']).toBe('secretsmanager.DeleteSecret');
    expect(JSON.parse(fake.requests[0]!.payload)).toEqual({ SecretId: 's', ForceDeleteWithoutRecovery: true });
  });

  it('rejects with the AWS error code as `name`, keeping message, status and `__type`', async () => {
    const call = awsJson11({
      service: 'secretsmanager',
      targetPrefix: 'secretsmanager',
      region: 'eu-west-1',
      connect: () =>
        Promise.resolve(async () => {
          throw awsError('com.amazonaws.secretsmanager#ResourceNotFoundException', 'Secrets Manager can\u2019t find the specified secret.');
        }),
    });
    const err = (await call('GetSecretValue', { SecretId: 'x' }).catch((e: unknown) => e)) as Error & { statusCode?: number; __type?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ResourceNotFoundException');
    expect(err.message).toBe('Secrets Manager can\u2019t find the specified secret.');
    expect(err.statusCode).toBe(400);
    expect(err.__type).toBe('com.amazonaws.secretsmanager#ResourceNotFoundException');
  });

  it('rejects with the connect error when the client cannot be created (no credentials)', async () => {
    const call = awsJson11({ ...cognitoIdp({ region: 'eu-west-1' }), connect: () => Promise.reject(new Error('You must supply AWS credentials')) });
    await expect(call('ListUsers', {})).rejects.toThrow('You must supply AWS credentials');
  });
});

describe('awsErrorCode', () => {
  it('takes the code from `__type` by the JSON protocols\u2019 rule: before any ":", after any "#"', () => {
    expect(awsErrorCode(awsError('UserNotFoundException', 'x'))).toBe('UserNotFoundException');
    expect(awsErrorCode(awsError('com.amazonaws.cognito#UserNotFoundException', 'x'))).toBe('UserNotFoundException');
    expect(awsErrorCode(awsError('com.amazonaws.cognito#InvalidParameterException:http://internal.amazon.com/coral/', 'x'))).toBe('InvalidParameterException');
  });

  it('keeps the name of an error without `__type` (a connection error) and gives "" for a value that is no Error', () => {
    expect(awsErrorCode(Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error', code: 'ECONNREFUSED' }))).toBe('Error');
    expect(awsErrorCode(new TypeError('x'))).toBe('TypeError');
    expect(awsErrorCode('boom')).toBe('');
    expect(awsErrorCode(undefined)).toBe('');
  });
});
