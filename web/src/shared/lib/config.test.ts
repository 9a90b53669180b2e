import { describe, expect, it } from 'vitest';
import './zod-setup';
import { PortalConfig } from '../../../../lambdas/contract/portal-config';
import { checkPortalConfig } from './config';

const VALID = {
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_abc',
  userPoolClientId: 'client',
  identityPoolId: '',
  apiUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod',
  stage: 'dev',
  allowSignUp: true,
  brandName: 'Vigía',
};

const URLS = ['https://a.example', 'http://127.0.0.1:3001', 'http://localhost', 'not a url', '', 'https://', 'http://a b', 'ftp://x.example/y', 'mailto:a@b.c', '//a.example', 'https://a.example/p?q=1#f', ' https://a.example', 'javascript:alert(1)', 'file:///etc/passwd'];
const VALUES: unknown[] = ['', 'x', 0, 1, true, false, null, undefined, [], {}];

const OAUTH = {
  domain: 'vigia-prod.auth.eu-west-1.amazoncognito.com',
  scopes: ['openid', 'email'],
  redirectSignIn: 'https://d111.cloudfront.net/',
  redirectSignOut: 'https://d111.cloudfront.net/',
  socialProviders: ['Google'],
  enterprise: true,
};
const OAUTH_VALUES: unknown[] = [...VALUES, '127.0.0.1:9231', 'a/b', 'a b', ['openid'], [''], [1], ['Google', 'Apple'], ['Microsoft'], ['google']];

/** Inputs: the valid config, each field replaced by each sample value or removed, URL samples, extra keys, non-objects. */
function samples(): unknown[] {
  const out: unknown[] = [VALID, { ...VALID, userPoolEndpoint: 'http://127.0.0.1:9229' }, { ...VALID, extra: 1 }, null, [], 'x', 1, { ...VALID, oauth: OAUTH }, { ...VALID, oauth: { ...OAUTH, extra: 1 } }];
  for (const key of Object.keys(OAUTH)) {
    for (const v of [...OAUTH_VALUES, ...URLS]) out.push({ ...VALID, oauth: { ...OAUTH, [key]: v } });
    const { [key as keyof typeof OAUTH]: _drop, ...rest } = OAUTH;
    out.push({ ...VALID, oauth: rest });
  }
  for (const key of [...Object.keys(VALID), 'userPoolEndpoint', 'oauth']) {
    for (const v of [...VALUES, ...URLS]) out.push({ ...VALID, [key]: v });
    const { [key as keyof typeof VALID]: _drop, ...rest } = VALID;
    out.push(rest);
  }
  return out;
}

describe('checkPortalConfig (the sign-in page’s config check without zod)', () => {
  it('accepts and rejects exactly what the PortalConfig zod schema does, with the same parsed value', () => {
    for (const input of samples()) {
      const zod = PortalConfig.safeParse(input);
      const mine = checkPortalConfig(input);
      expect(mine.config !== undefined, JSON.stringify(input)).toBe(zod.success);
      if (zod.success) expect(mine.config).toEqual(zod.data);
      else expect(mine.issues!.length).toBeGreaterThan(0);
    }
  });

  it('names the offending fields', () => {
    expect(checkPortalConfig({ ...VALID, apiUrl: 'nope', allowSignUp: 'yes' }).issues).toEqual(['apiUrl: invalid URL', 'allowSignUp: expected a boolean']);
  });
});
