/**
 * The local user pool's checks that need no server: SigV4 verification of administrative calls
 * (`verifySignatureV4`, the same verifier the gateway uses for the ingest routes), Cognito's masking of code
 * destinations, and the gateway's throttling bucket. docs/local-emulation.md#administrative-operations.
 */
import { describe, expect, it } from 'vitest';
import { SignatureRefused, signCollectorRequest, verifySignatureV4 } from '../../scripts/local/collector-auth.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import { maskEmail } from '../../scripts/local/cognito/proxy.js';
import { tokenBucket } from '../../scripts/local/gateway.js';

const URL_ = 'http://127.0.0.1:9229/';
const body = JSON.stringify({ UserPoolId: 'local_vigia', Username: 'ana@acme.example', GroupName: 'acme' });

async function signed(over: string, extra: Record<string, string> = {}, key = LOCAL_OPERATOR_CREDENTIAL) {
  const headers = await signCollectorRequest(key, { method: 'POST', url: URL_, body: over, headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.AdminAddUserToGroup', ...extra } }, 'us-east-1');
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
const verify = (headers: Record<string, string>, sent: string, service = 'execute-api') =>
  verifySignatureV4([LOCAL_OPERATOR_CREDENTIAL], { method: 'POST', url: new URL(URL_), headers, body: sent }, { service });

const fault = (p: Promise<unknown>) => p.then(() => 'accepted', (e: unknown) => (e instanceof SignatureRefused ? e.fault : String(e)));

describe('verifySignatureV4', () => {
  it('accepts a signature of the operator key over the body it was sent with', async () => {
    await expect(verify(await signed(body), body)).resolves.toBe(LOCAL_OPERATOR_CREDENTIAL);
  });
  it('refuses the same headers with another body, and UNSIGNED-PAYLOAD', async () => {
    expect(await fault(verify(await signed(body), body.replace('acme', 'globex')))).toBe('invalid');
    expect(await fault(verify(await signed(body, { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }), body))).toBe('invalid');
  });
  it('names a missing header, an unknown key and another service', async () => {
    expect(await fault(verify({}, body))).toBe('missing');
    const stranger = { ...LOCAL_OPERATOR_CREDENTIAL, accessKeyId: 'AKIAOTHER' };
    expect(await fault(verify(await signed(body, {}, stranger), body))).toBe('unknown-key');
    expect(await fault(verify(await signed(body), body, 'cognito-idp'))).toBe('invalid');
  });
});

describe('maskEmail', () => {
  it("keeps the first letter of the local part and of the domain, as Cognito's CodeDeliveryDetails", () => {
    expect(maskEmail('ana@acme.example')).toBe('a***@a***');
    expect(maskEmail('Bruno.Diaz@globex.example')).toBe('B***@g***');
  });
});

describe('tokenBucket', () => {
  it('lets the burst through at once, then the rate per second', () => {
    const bucket = tokenBucket(10, 20, 0);
    const first = Array.from({ length: 25 }, () => bucket.take(0)).filter(Boolean).length;
    expect(first).toBe(20);
    expect(Array.from({ length: 15 }, () => bucket.take(1000)).filter(Boolean).length).toBe(10);
  });
});
