/**
 * Cognito e-mail through Amazon SES with an address identity or a domain identity (issue 29 point 9;
 * docs/platform.md#cognito-e-mail). Cognito refuses a user pool whose `EmailConfiguration.SourceArn` is not a
 * verified SES identity (API reference, EmailConfigurationType), so with only the domain verified the ARN must
 * name the domain: `-c sesFromEmail=no-reply@vigia.example -c sesVerifiedDomain=vigia.example`.
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { sesIdentity, stageConfig, stageOverridesFromContext } from '../../infra/stage-config.js';
import { addVigiaStacks } from '../../infra/vigia-app.js';
import { cdkJsonContext, ofType, PROD_ENV, synth, TEST_SES } from '../support/synth.js';

type Props = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fromContext = (values: Record<string, string>) => stageOverridesFromContext((k) => values[k]);
const poolEmail = (overrides: ReturnType<typeof fromContext>): Props => {
  const s = synth('staging', { env: PROD_ENV, alarmEmail: 'soc@example.com', overrides });
  const pools = ofType(s.t.auth, 'AWS::Cognito::UserPool');
  expect(pools).toHaveLength(1);
  return (pools[0]![1].Properties as Props).EmailConfiguration as Props;
};
/** The SourceArn with its partition token resolved (CDK joins `arn:`, `${AWS::Partition}`, the rest). */
const sourceArn = (email: Props): string =>
  typeof email.SourceArn === 'string'
    ? email.SourceArn
    : (email.SourceArn['Fn::Join'][1] as Array<string | object>).map((p) => (typeof p === 'string' ? p : 'aws')).join('');
/** The From header as CDK writes it: the display name "Vigía" RFC 2047-encoded, then the address. */
const from = (address: string) => `=?UTF-8?B?${Buffer.from('Vigía').toString('base64')}?= <${address}>`;

describe('Cognito e-mail: SES address identity or domain identity', () => {
  it('address identity (no sesVerifiedDomain): SourceArn names the address, as before', () => {
    const email = poolEmail(fromContext({ sesFromEmail: TEST_SES.fromEmail, sesRegion: 'eu-west-1' }));
    expect(email).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: from(TEST_SES.fromEmail) });
    expect(sourceArn(email)).toBe(`arn:aws:ses:eu-west-1:${PROD_ENV.account}:identity/${TEST_SES.fromEmail}`);
  });

  it('domain identity (-c sesVerifiedDomain): SourceArn names the verified domain, the From stays the address', () => {
    const email = poolEmail(fromContext({ sesFromEmail: 'no-reply@vigia.example', sesVerifiedDomain: 'vigia.example', sesRegion: 'eu-west-1', sesConfigurationSet: 'vigia' }));
    expect(email).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: from('no-reply@vigia.example'), ConfigurationSet: 'vigia' });
    expect(sourceArn(email)).toBe(`arn:aws:ses:eu-west-1:${PROD_ENV.account}:identity/vigia.example`);
  });

  it('the SES region defaults to the stack region for the domain identity too', () => {
    const email = poolEmail(fromContext({ sesFromEmail: 'alertas@soc.vigia.example', sesVerifiedDomain: 'SOC.Vigia.Example' }));
    expect(sourceArn(email)).toBe(`arn:aws:ses:${PROD_ENV.region}:${PROD_ENV.account}:identity/soc.vigia.example`);
    expect(email.From).toBe(from('alertas@soc.vigia.example'));
  });

  it('context: sesVerifiedDomain is read with the address; the identity is the domain when given', () => {
    const o = fromContext({ sesFromEmail: 'a@b.example', sesVerifiedDomain: 'b.example' });
    expect(o.email).toEqual({ fromEmail: 'a@b.example', verifiedDomain: 'b.example' });
    expect(sesIdentity(stageConfig('prod', o).email!)).toBe('b.example');
    expect(sesIdentity(stageConfig('prod', fromContext({ sesFromEmail: 'a@b.example' })).email!)).toBe('a@b.example');
  });

  it.each([
    [{ sesFromEmail: 'no-reply@other.example', sesVerifiedDomain: 'vigia.example' }, /sesFromEmail "no-reply@other\.example" is not in sesVerifiedDomain "vigia\.example" for stage prod: .*<name>@vigia\.example/],
    // SES lets a verified domain send from its subdomains, but CDK and this check take the exact domain.
    [{ sesFromEmail: 'no-reply@mail.vigia.example', sesVerifiedDomain: 'vigia.example' }, /is not in sesVerifiedDomain "vigia\.example"/],
    [{ sesFromEmail: 'no-reply@vigia.example', sesVerifiedDomain: 'https://vigia.example' }, /Invalid sesVerifiedDomain "https:\/\/vigia\.example" for stage prod/],
    [{ sesFromEmail: 'no-reply@vigia.example', sesVerifiedDomain: 'localhost' }, /Invalid sesVerifiedDomain "localhost"/],
    [{ sesVerifiedDomain: 'vigia.example' }, /sesVerifiedDomain "vigia\.example" for stage prod needs -c sesFromEmail=/],
    [{ sesFromEmail: 'no-reply', sesVerifiedDomain: 'vigia.example' }, /Invalid sesFromEmail "no-reply" for stage prod/],
  ])('a clear synth error for %o', (values, message) => {
    expect(() => stageConfig('prod', fromContext(values))).toThrow(message);
    // bin/app.ts builds the stacks from the same overrides: nothing is synthesized.
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    expect(() => addVigiaStacks(app, { stage: 'prod', env: PROD_ENV, nag: false, overrides: fromContext(values) })).toThrow(message);
  });
});
