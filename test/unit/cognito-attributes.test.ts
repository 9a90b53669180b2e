/**
 * Cognito's attribute write rules in the local user pool (scripts/local/cognito/attributes.ts) and the federated
 * attribute mapping (scripts/local/cognito/hosted.ts `mappedAttributes`), from the one source the stack uses
 * (infra/user-pool-attributes.ts). AWS: developer guide, "Working with user attributes"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-attributes.html) and "Specifying
 * identity provider attribute mappings for your user pool"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-specifying-attribute-mapping.html).
 */
import { describe, expect, it } from 'vitest';
import { checkAttributeWrite, clientWriteAttributes, UNAUTHORIZED_ATTRIBUTE } from '../../scripts/local/cognito/attributes.js';
import { mappedAttributes } from '../../scripts/local/cognito/hosted.js';
import { OIDC_ATTRIBUTE_MAPPING, PORTAL_CLIENT_WRITE_ATTRIBUTES, STANDARD_ATTRIBUTES, userPoolSchemaAttributes } from '../../infra/user-pool-attributes.js';
import { portalClientWriteAttributes } from '../../infra/auth-stack.js';

const portal = { kind: 'client', writeAttributes: PORTAL_CLIENT_WRITE_ATTRIBUTES } as const;
const attrs = (...names: string[]) => names.map((Name) => ({ Name, Value: 'x' }));
const schemaError = (name: string) => ({
  type: 'InvalidParameterException',
  message: `Attributes did not conform to the schema: Type for attribute {${name}} could not be determined`,
});

describe('the portal client and the schema (one source)', () => {
  it('the client may write the standard attributes but not the verified flags, identities or sub', () => {
    expect(PORTAL_CLIENT_WRITE_ATTRIBUTES).toContain('email');
    for (const a of ['email_verified', 'phone_number_verified', 'identities', 'sub']) expect(PORTAL_CLIENT_WRITE_ATTRIBUTES).not.toContain(a);
    expect(PORTAL_CLIENT_WRITE_ATTRIBUTES.every((a) => (STANDARD_ATTRIBUTES as readonly string[]).includes(a))).toBe(true);
  });

  it('the CDK client is built from the same list (infra/auth-stack.ts portalClientWriteAttributes)', () => {
    expect([...portalClientWriteAttributes().attributes()].sort()).toEqual([...PORTAL_CLIENT_WRITE_ATTRIBUTES].sort());
  });

  it('every mapped attribute is writable by the client (Cognito writes mapped attributes with its permissions)', () => {
    for (const a of Object.keys(OIDC_ATTRIBUTE_MAPPING)) expect(PORTAL_CLIENT_WRITE_ATTRIBUTES).toContain(a);
  });

  it("a client without WriteAttributes gets Cognito's default, the standard attributes", () => {
    expect(clientWriteAttributes({})).toEqual(PORTAL_CLIENT_WRITE_ATTRIBUTES);
    expect(clientWriteAttributes({ WriteAttributes: ['email'] })).toEqual(['email']);
  });
});

describe('checkAttributeWrite', () => {
  it('accepts what the portal writes', () => {
    expect(checkAttributeWrite(attrs('email'), portal)).toBeNull();
    expect(checkAttributeWrite(attrs('email', 'name', 'locale'), portal)).toBeNull();
    expect(checkAttributeWrite(undefined, portal)).toBeNull();
  });

  it('refuses a custom attribute the pool does not declare, for clients and administrators alike', () => {
    expect(checkAttributeWrite(attrs('custom:tenant'), portal)).toEqual(schemaError('custom:tenant'));
    expect(checkAttributeWrite(attrs('email', 'custom:tenant'), { kind: 'admin' })).toEqual(schemaError('custom:tenant'));
    expect(checkAttributeWrite(attrs('tenant'), { kind: 'admin' })).toEqual(schemaError('tenant'));
  });

  it('accepts a declared custom attribute in the schema, within the write attributes', () => {
    const schema = userPoolSchemaAttributes(['plan']);
    expect(checkAttributeWrite(attrs('custom:plan'), { kind: 'client', writeAttributes: ['custom:plan'] }, schema)).toBeNull();
    expect(checkAttributeWrite(attrs('custom:plan'), portal, schema)).toEqual(UNAUTHORIZED_ATTRIBUTE);
  });

  it('refuses identities, email_verified and sub from a client (NotAuthorizedException)', () => {
    for (const name of ['identities', 'email_verified', 'phone_number_verified', 'sub']) {
      expect(checkAttributeWrite(attrs('email', name), portal)).toEqual({ type: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' });
    }
  });

  it('the schema is checked before the permissions', () => {
    expect(checkAttributeWrite(attrs('identities', 'custom:tenant'), portal)).toEqual(schemaError('custom:tenant'));
  });

  it('lets an administrator set email_verified but never identities or sub', () => {
    expect(checkAttributeWrite(attrs('email', 'email_verified'), { kind: 'admin' })).toBeNull();
    expect(checkAttributeWrite(attrs('email', 'identities'), { kind: 'admin' })?.type).toBe('InvalidParameterException');
    expect(checkAttributeWrite(attrs('sub'), { kind: 'admin' })?.type).toBe('InvalidParameterException');
  });
});

describe('mappedAttributes (federated users)', () => {
  it('gives exactly the mapped attributes: the e-mail, no email_verified unless mapped', () => {
    const claims = { sub: 'abc', email: 'carla@acme.example', email_verified: true, name: 'Carla' };
    expect(mappedAttributes(OIDC_ATTRIBUTE_MAPPING, claims)).toEqual([{ Name: 'email', Value: 'carla@acme.example' }]);
    expect(mappedAttributes({ email: 'email', email_verified: 'email_verified' }, claims)).toEqual([
      { Name: 'email', Value: 'carla@acme.example' },
      { Name: 'email_verified', Value: 'true' },
    ]);
    expect(mappedAttributes(OIDC_ATTRIBUTE_MAPPING, { sub: 'abc' })).toEqual([]);
  });
});
