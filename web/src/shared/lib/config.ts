/**
 * Loading and validating the portal's runtime configuration, `/config.json` (shape: `PortalConfig` in
 * `lambdas/contract/portal-config.ts`; written by the PortalDeployment stack in AWS and by the local stack,
 * `scripts/local/stack.ts`, offline).
 */
import type { PortalConfig } from '../../../../lambdas/contract/portal-config';
import { PORTAL_CONFIG_ELEMENT_ID } from '../../../../lambdas/contract/portal-config-html';

export type { PortalConfig };

/**
 * Checks `json` against the `PortalConfig` schema without zod, so that the sign-in page does not wait for
 * the zod chunk (~26 KB gzip) before it can render (docs/portal.md#bundles). Same rules as the zod schema
 * in `lambdas/contract/portal-config.ts` (`config.test.ts` compares the two on many inputs): the
 * strings `region`, `userPoolId`, `userPoolClientId`, `stage`, `brandName` non-empty; `identityPoolId` a
 * string; `apiUrl` (and `userPoolEndpoint` when present) an absolute URL, kept trimmed; `allowSignUp` a boolean;
 * `oauth`, when present, {@link checkOAuth}'s rules. Unknown keys are dropped, as zod's object parsing drops them.
 *
 * @returns `{ config }` or `{ issues }` (`path: message` strings, for the console).
 */
export function checkPortalConfig(json: unknown): { config: PortalConfig; issues?: undefined } | { config?: undefined; issues: string[] } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { issues: ['(root): expected an object'] };
  const o = json as Record<string, unknown>;
  const issues: string[] = [];
  const str = (key: string, min: number) => {
    if (typeof o[key] !== 'string') issues.push(`${key}: expected a string`);
    else if ((o[key] as string).length < min) issues.push(`${key}: must not be empty`);
  };
  const url = (key: string, optional: boolean) => {
    if (optional && o[key] === undefined) return;
    if (typeof o[key] !== 'string') return void issues.push(`${key}: expected a string`);
    if (!isUrl(o[key] as string)) issues.push(`${key}: invalid URL`);
  };
  for (const key of ['region', 'userPoolId', 'userPoolClientId', 'stage', 'brandName']) str(key, 1);
  str('identityPoolId', 0);
  url('apiUrl', false);
  url('userPoolEndpoint', true);
  if (typeof o.allowSignUp !== 'boolean') issues.push('allowSignUp: expected a boolean');
  const oauth = o.oauth === undefined ? undefined : checkOAuth(o.oauth, issues);
  if (issues.length) return { issues };
  const config: PortalConfig = {
    region: o.region as string,
    userPoolId: o.userPoolId as string,
    userPoolClientId: o.userPoolClientId as string,
    identityPoolId: o.identityPoolId as string,
    apiUrl: (o.apiUrl as string).trim(),
    stage: o.stage as string,
    allowSignUp: o.allowSignUp as boolean,
    brandName: o.brandName as string,
  };
  if (o.userPoolEndpoint !== undefined) config.userPoolEndpoint = (o.userPoolEndpoint as string).trim();
  if (oauth) config.oauth = oauth;
  return { config };
}

const SOCIAL_PROVIDERS: ReadonlySet<string> = new Set(['Amazon', 'Apple', 'Facebook', 'Google']); // literal-ok: provider names (Amplify's)

/**
 * `config.json`'s `oauth` (docs/platform.md#federated-sign-in), as the zod `PortalOAuthConfig`: `domain` a non-empty
 * host without `/` or spaces; `scopes` a non-empty list of non-empty strings; `redirectSignIn`/`redirectSignOut`
 * absolute URLs (trimmed); `socialProviders` a list of `Amazon`, `Apple`, `Facebook`, `Google`; `enterprise` a
 * boolean. Pushes `oauth.<field>: message` into `issues`; returns the value when it added none.
 */
function checkOAuth(value: unknown, issues: string[]): PortalConfig['oauth'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push('oauth: expected an object');
    return undefined;
  }
  const o = value as Record<string, unknown>;
  const before = issues.length;
  if (typeof o.domain !== 'string' || !/^[^/\s]+$/.test(o.domain)) issues.push('oauth.domain: expected a host name');
  const scopes = o.scopes;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((x) => typeof x !== 'string' || x.length === 0)) issues.push('oauth.scopes: expected non-empty strings');
  for (const key of ['redirectSignIn', 'redirectSignOut']) {
    if (typeof o[key] !== 'string' || !isUrl(o[key] as string)) issues.push(`oauth.${key}: invalid URL`);
  }
  const social = o.socialProviders;
  if (!Array.isArray(social) || social.some((x) => typeof x !== 'string' || !SOCIAL_PROVIDERS.has(x))) issues.push('oauth.socialProviders: expected Amazon, Apple, Facebook or Google');
  if (typeof o.enterprise !== 'boolean') issues.push('oauth.enterprise: expected a boolean');
  if (issues.length > before) return undefined;
  return {
    domain: o.domain as string,
    scopes: [...(scopes as string[])],
    redirectSignIn: (o.redirectSignIn as string).trim(),
    redirectSignOut: (o.redirectSignOut as string).trim(),
    socialProviders: [...(social as Array<'Amazon' | 'Apple' | 'Facebook' | 'Google'>)],
    enterprise: o.enterprise as boolean,
  };
}

/** Whether `s`, trimmed, parses as an absolute URL (`new URL`, what zod's `url()` checks; it keeps the trimmed value). */
function isUrl(s: string): boolean {
  try {
    new URL(s.trim());
    return true;
  } catch {
    return false;
  }
}

/** Text shown instead of the portal when the configuration is missing or invalid (docs/portal.md#configuration-error). */
export const CONFIG_ERROR_TEXT = 'Configuration error (see console) – please contact the administrator';

/** Why `/config.json` could not be used; `message` is for the console, never for end users. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The configuration the server wrote into `index.html` (the `<script type="application/json" id="vigia-config">`
 * data block, `lambdas/contract/portal-config-html.ts`; docs/portal.md#configuration-in-indexhtml), validated
 * as {@link loadPortalConfig} validates `/config.json`. Synchronous: the start-up renders the sign-in page in
 * the same task.
 *
 * @returns the parsed configuration, or `undefined` when the page carries no such block (then the portal
 *   fetches `/config.json`).
 * @throws ConfigError when the block is not JSON or does not match `PortalConfig` (the message lists the
 *   offending fields).
 */
export function readInlinePortalConfig(doc: Document = document): PortalConfig | undefined {
  const el = doc.getElementById(PORTAL_CONFIG_ELEMENT_ID);
  if (!el) return undefined;
  const where = `index.html #${PORTAL_CONFIG_ELEMENT_ID}`;
  let json: unknown;
  try {
    json = JSON.parse(el.textContent ?? '');
  } catch (err) {
    throw new ConfigError(`${where} is not valid JSON: ${String(err)}`);
  }
  return validConfig(json, where);
}

/** `json` as a `PortalConfig` ({@link checkPortalConfig}); throws ConfigError `<where> is invalid: <issues>` otherwise. */
function validConfig(json: unknown, where: string): PortalConfig {
  const checked = checkPortalConfig(json);
  if (checked.issues) throw new ConfigError(`${where} is invalid: ${checked.issues.join('; ')}`);
  return checked.config;
}

/**
 * Fetches `url` (default `/config.json`, never cached) and validates it against `PortalConfig`.
 *
 * @returns the parsed configuration.
 * @throws ConfigError when the request fails, the status is not 2xx, the body is not JSON, or the
 *   JSON does not match `PortalConfig` (the message lists the offending fields).
 */
export async function loadPortalConfig(
  url = '/config.json',
  fetchImpl: typeof fetch = fetch,
): Promise<PortalConfig> {
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (err) {
    throw new ConfigError(`cannot fetch ${url}: ${String(err)}`);
  }
  if (!response.ok) throw new ConfigError(`cannot fetch ${url}: HTTP ${response.status}`);
  let json: unknown;
  try {
    json = await response.json();
  } catch (err) {
    throw new ConfigError(`${url} is not valid JSON: ${String(err)}`);
  }
  return validConfig(json, url);
}
