/**
 * Federated sign-in end to end (docs/portal.md#company-sign-in, docs/local-emulation.md#federated-sign-in), in
 * real Chromium with the unmodified Amplify client and Authenticator, against a local stack with federation: the
 * local user pool's hosted OAuth endpoints (HTTPS) and a local OpenID provider (oidc-provider) playing Acme's own
 * identity provider with the demo user carla@acme.example.
 *
 *  - Carla clicks "Iniciar sesión con la cuenta de tu empresa", gives her company e-mail, signs in on her
 *    company's login page and lands in the portal at `/` with a clean address, as a member of `acme` only: the
 *    API gives her acme's data and refuses globex's.
 *  - Sign-out (/page/logout) ends both sessions: her tokens are revoked at the user pool and the pool's hosted
 *    session no longer signs anyone in.
 *  - A tampered `state` on the way back from the identity provider is refused (nothing is exchanged, no tokens),
 *    and the authorization code the portal redeemed cannot be redeemed again.
 *  - Staff bind the same identity provider to Globex from the tenant administration screen ("Proveedor de identidad
 *    de la empresa", docs/api.md#tenant-identity-provider) with a new e-mail domain: a company sign-in with that
 *    domain lands in globex; once staff remove it, the domain no longer routes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv, type TrackedPage } from '../support/e2e.js';

let env: E2eEnv;

before(async () => {
  env = await startE2e({ federation: true });
});
after(async () => {
  await env?.close();
});

const carla = () => env.stack.federatedUsers.find((u) => u.email === 'carla@acme.example')!;
const hosted = () => `https://${env.stack.config.oauth!.domain}`;

/** From the sign-in page to the company's login page (the local identity provider). */
async function toCompanyLogin(page: Page): Promise<void> {
  await page.goto(`${env.web}/page/login`);
  await page.getByRole('button', { name: 'Iniciar sesión con la cuenta de tu empresa' }).click();
  await page.getByLabel('Correo de tu empresa').fill(carla().email);
  await page.getByRole('button', { name: 'Continuar con tu empresa' }).click();
  await page.waitForURL((u) => u.toString().startsWith(`${carla().idp}/interaction/`), { timeout: 20_000 });
}

/** Signs in on the company's login page (the e-mail comes pre-filled from login_hint). */
async function companyLogin(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Acme Logística' }).waitFor();
  assert.equal(await page.getByLabel('Correo').inputValue(), carla().email, 'login_hint reached the identity provider');
  await page.getByLabel('Contraseña').fill(carla().password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Amplify's stored tokens of the signed-in user (localStorage), or null. */
async function storedTokens(page: Page): Promise<{ idToken: string; accessToken: string; refreshToken: string } | null> {
  // A string, not a function: the test runner's transform would add helpers the page does not have.
  const entries = (await page.evaluate('Object.entries(localStorage)')) as Array<[string, string]>;
  const get = (suffix: string) => entries.find(([k]) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith(suffix))?.[1];
  const idToken = get('.idToken');
  return idToken ? { idToken, accessToken: get('.accessToken')!, refreshToken: get('.refreshToken')! } : null;
}

const claims = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A public call to the local user pool (no credentials), as Amplify makes them. */
async function poolCall(target: string, body: object): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(env.stack.urls.cognito, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

/** `/oauth2/authorize` without a provider, with the browser's cookies: only a live hosted session answers with a code. */
async function silentAuthorize(t: TrackedPage): Promise<URL> {
  const params = new URLSearchParams({
    client_id: env.stack.config.userPoolClientId,
    redirect_uri: env.stack.config.oauth!.redirectSignIn,
    response_type: 'code',
    scope: 'openid email',
    state: 'silent-check',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  const r = await t.context.request.get(`${hosted()}/oauth2/authorize?${params}`, { maxRedirects: 0 });
  assert.equal(r.status(), 302);
  return new URL(r.headers().location!);
}

/**
 * Submits the company login page while following its redirect chain outside the browser (the browser's cookies,
 * no redirects followed) until `stop(url)`, then hands the browser that address after `tamper`. Playwright's routes
 * see only the first request of a redirect chain, so this is how a test changes an address in the middle of it.
 */
async function tamperChain(page: Page, stop: (url: URL) => boolean, tamper: (url: URL) => URL): Promise<void> {
  await page.route(/\/interaction\/[^/]+\/login$/, async (route) => {
    let response = await route.fetch({ maxRedirects: 0 });
    let url = new URL(response.headers().location!, route.request().url());
    while (!stop(url)) {
      response = await page.context().request.get(url.toString(), { maxRedirects: 0 });
      url = new URL(response.headers().location!, url);
    }
    await route.fulfill({ status: 303, headers: { location: tamper(url).toString() } });
  });
}

const forgeState = (url: URL): URL => {
  const forged = new URL(url);
  forged.searchParams.set('state', `${url.searchParams.get('state')}x`);
  return forged;
};

describe('federated sign-in (company identity provider)', () => {
  it('carla: company button → her company login page → the portal in tenant acme only, clean address; sign-out ends both sessions; her code cannot be redeemed twice', async () => {
    const t = await newPage(env, VIEWPORTS.desktop);
    const { page } = t;
    const tokenRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url() === `${hosted()}/oauth2/token` && r.method() === 'POST') tokenRequests.push(r.postData() ?? '');
    });
    await toCompanyLogin(page);
    await screenshot(page, 'federated-company-login');
    await companyLogin(page);
    await page.getByRole('banner').getByText(carla().email).waitFor({ timeout: 30_000 });
    // Back at the site root, the code and state gone from the address.
    const landed = new URL(page.url());
    assert.equal(landed.origin, env.web);
    assert.equal(landed.search, '', `clean address, got ${page.url()}`);
    assert.equal(landed.pathname, '/');
    await screenshot(page, 'federated-signed-in');

    // In acme, and only acme: from the token, and from the API.
    const tokens = await storedTokens(page);
    assert.ok(tokens, 'Amplify stored the tokens');
    const id = claims(tokens.idToken);
    assert.deepEqual(id['cognito:groups'], ['acme']);
    assert.equal(id.email, carla().email);
    const api = (path: string) => fetch(`${env.stack.urls.api}${path}`, { headers: { authorization: tokens.idToken } });
    const me = (await (await api('/me')).json()) as { tenants: Array<{ id: string }>; isAdmin: boolean };
    assert.deepEqual(me.tenants.map((x) => x.id), ['acme']);
    assert.equal(me.isAdmin, false);
    const incidents = await api('/incidents');
    assert.equal(incidents.status, 200);
    assert.ok(((await incidents.json()) as { items: unknown[] }).items.length > 0, 'acme has incidents');
    assert.equal((await api('/incidents?tenant=globex')).status, 403);

    // The code the portal redeemed is single use: the same token request again is refused.
    assert.equal(tokenRequests.length, 1, 'Amplify redeemed one code');
    const replay = await t.context.request.post(`${hosted()}/oauth2/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: tokenRequests[0]!,
    });
    assert.equal(replay.status(), 400);
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');

    // The user pool's hosted session is live before the sign-out…
    assert.ok((await silentAuthorize(t)).searchParams.get('code'), 'hosted session signs in silently while it lives');

    // Sign-out: Amplify revokes the tokens (global sign-out) and goes through the hosted /logout back to the site.
    const navigations: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) navigations.push(r.url());
    });
    await page.goto(`${env.web}/page/logout`);
    await page.getByLabel('Correo electrónico').waitFor({ timeout: 20_000 });
    const logout = navigations.find((u) => u.startsWith(`${hosted()}/logout?`));
    assert.ok(logout, `the sign-out went through the hosted /logout: ${navigations.join(' → ')}`);
    assert.equal(new URL(logout).searchParams.get('logout_uri'), env.stack.config.oauth!.redirectSignOut);
    assert.equal(await storedTokens(page), null, 'no tokens left in the browser');
    // …and ended after it: the pool refuses her refresh and access tokens, and its session no longer signs in.
    const refresh = await poolCall('GetTokensFromRefreshToken', { ClientId: env.stack.config.userPoolClientId, RefreshToken: tokens.refreshToken });
    assert.equal(refresh.json.__type, 'NotAuthorizedException');
    const user = await poolCall('GetUser', { AccessToken: tokens.accessToken });
    assert.equal(user.json.__type, 'NotAuthorizedException');
    const after = await silentAuthorize(t);
    assert.equal(after.searchParams.get('code'), null);
    assert.equal(after.searchParams.get('error'), 'invalid_request');
    assert.deepEqual(t.problems.filter((p) => !/status of 400/.test(p)), []);
    await t.context.close();
  });

  it('a tampered state on the way back from the identity provider is refused: nothing exchanged, no tokens', async () => {
    const t = await newPage(env, VIEWPORTS.desktop);
    const { page } = t;
    await toCompanyLogin(page);
    await tamperChain(page, (u) => u.pathname === '/oauth2/idpresponse', forgeState);
    await companyLogin(page);
    await page.getByText(/invalid_state/).waitFor({ timeout: 20_000 });
    assert.ok(page.url().startsWith(`${hosted()}/oauth2/idpresponse`));
    await page.goto(`${env.web}/`);
    await page.getByLabel('Correo electrónico').waitFor({ timeout: 20_000 });
    assert.equal(await storedTokens(page), null);
    await t.context.close();
  });

  it('a tampered state on the way back to the portal is refused by Amplify: the code is not redeemed, the failure is logged', async () => {
    const t = await newPage(env, VIEWPORTS.desktop);
    const { page } = t;
    let tokenCalls = 0;
    page.on('request', (r) => {
      if (r.url() === `${hosted()}/oauth2/token`) tokenCalls += 1;
    });
    await toCompanyLogin(page);
    await tamperChain(page, (u) => u.origin === env.web, forgeState);
    await companyLogin(page);
    await page.getByLabel('Correo electrónico').waitFor({ timeout: 30_000 });
    // Polled from Node: a string predicate is evaluated in the page, which its CSP (script-src 'self', no eval) refuses.
    for (const end = Date.now() + 10_000; new URL(page.url()).search !== '' && Date.now() < end; ) await page.waitForTimeout(100);
    assert.equal(new URL(page.url()).search, '', 'Amplify cleaned the address');
    assert.equal(tokenCalls, 0, 'no token request with a forged state');
    assert.equal(await storedTokens(page), null);
    assert.ok(t.problems.some((p) => p.includes('[vigia] federated sign-in failed')), t.problems.join('\n'));
    await t.context.close();
  });
  it('staff configure Globex\u2019s provider on the administration screen; a sign-in through it lands in globex; removed, the domain no longer routes', async () => {
    const idp = env.stack.identityProvider!;
    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, 'admin@vigia.example', 'Vigia-Demo-2026');
    // Acme: carla signs in through AcmeIdP of the stage's providers file; its card names that provider (issue 32 pt 7).
    await staff.page.goto(`${env.web}/admin/tenants/acme`);
    const acmeCard = staff.page.getByRole('region', { name: 'Proveedor de identidad de la empresa' });
    await acmeCard.getByTestId('idp-stage-provider').getByText(/«AcmeIdP» \(OIDC\).*acme\.example/).waitFor({ timeout: 20_000 });
    assert.equal(await acmeCard.getByTestId('idp-status').textContent(), 'No configurado aquí (el del despliegue está activo)');
    await screenshot(staff.page, 'federated-admin-acme-stage-provider');
    await staff.page.goto(`${env.web}/admin/tenants/globex`);
    const card = staff.page.getByRole('region', { name: 'Proveedor de identidad de la empresa' });
    await card.getByTestId('idp-status').getByText('No configurado').waitFor({ timeout: 20_000 });
    await card.getByLabel('URL del emisor (issuer)').fill(idp.issuer);
    await card.getByLabel('ID de cliente').fill(idp.clientId);
    await card.getByLabel('Secreto de cliente').fill(idp.clientSecret);
    await card.getByLabel(/Dominios de correo/).fill('globex-sso.example');
    await card.getByRole('button', { name: 'Guardar proveedor' }).click();
    await card.getByText('Proveedor de identidad guardado.').waitFor({ timeout: 20_000 }).catch(async (e: unknown) => {
      throw new Error(`not saved: ${await card.innerText()}\n${staff.problems.join('\n')}`, { cause: e });
    });
    assert.equal(await card.getByTestId('idp-status').textContent(), 'Configurado · Secreto de cliente guardado');
    assert.equal(await card.getByLabel('Secreto de cliente').inputValue(), '', 'the secret is write-only');
    await screenshot(staff.page, 'federated-admin-identity-provider');

    // A customer of Globex: company button with a globex-sso.example address → the same login page → globex.
    const t = await newPage(env, VIEWPORTS.desktop);
    await t.page.goto(`${env.web}/page/login`);
    await t.page.getByRole('button', { name: 'Iniciar sesión con la cuenta de tu empresa' }).click();
    await t.page.getByLabel('Correo de tu empresa').fill('carla@globex-sso.example');
    await t.page.getByRole('button', { name: 'Continuar con tu empresa' }).click();
    await t.page.waitForURL((u) => u.toString().startsWith(`${idp.issuer}/interaction/`), { timeout: 20_000 });
    await t.page.getByLabel('Correo').fill(carla().email);
    await t.page.getByLabel('Contraseña').fill(carla().password);
    await t.page.getByRole('button', { name: 'Entrar' }).click();
    await t.page.getByRole('banner').getByText(carla().email).waitFor({ timeout: 30_000 });
    const tokens = await storedTokens(t.page);
    assert.ok(tokens, 'Amplify stored the tokens');
    assert.deepEqual(claims(tokens.idToken)['cognito:groups'], ['globex'], 'the provider, not the address, decides the tenant');

    // Removed (after the confirmation), the domain no longer routes.
    await card.getByRole('button', { name: 'Eliminar proveedor' }).click();
    await staff.page.getByRole('alertdialog').getByRole('button', { name: 'Eliminar proveedor' }).click();
    await card.getByText('Proveedor de identidad eliminado.').waitFor({ timeout: 20_000 });
    assert.equal(await card.getByTestId('idp-status').textContent(), 'No configurado');
    const oauth = env.stack.config.oauth!;
    const q = new URLSearchParams({ client_id: env.stack.config.userPoolClientId, redirect_uri: oauth.redirectSignIn, response_type: 'code', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', idp_identifier: 'globex-sso.example' });
    const gone = await t.context.request.get(`${hosted()}/oauth2/authorize?${q}`, { maxRedirects: 0, ignoreHTTPSErrors: true });
    assert.equal(new URL(gone.headers().location!).searchParams.get('error'), 'invalid_request');
    await staff.context.close();
    await t.context.close();
  });
});
