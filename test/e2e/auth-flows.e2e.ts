/**
 * Sign-in flows (docs/portal.md#sign-in) driven end to end in real Chromium through the
 * Amplify Authenticator, in Spanish, against a fresh local stack (the local user pool behind the compatibility
 * proxy): sign up → confirm code (read from the pool's sent-codes log) → automatic sign-in, with resend code;
 * wrong password → Spanish error in the dismissible alert; forgot password → code → new password; an invited
 * user (AdminCreateUser with a temporary password) forced to set a new password; `/page/register` opens
 * Create Account, and is hidden when the deployment's config.json disallows sign-up.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AdminAddUserToGroupCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { codesFile } from '../../scripts/local/cognito/index.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { closeE2eWithCognitoAdmin, startE2eWithCognitoAdmin, createAcmeUser, fillSignIn, lastCode, newPage, routeConfigBlock, screenshot, signedInAs, signIn, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const run = randomUUID().slice(0, 8);
const NEW_PASSWORD = 'Vigia-Nueva-2026';

let env: E2eEnv;
let idp: CognitoIdentityProviderClient;

/** A confirmed Acme user with a verified e-mail (and a permanent password unless `temporary`). */
const createUser = (email: string, password: string, temporary = false) => createAcmeUser(idp, env, email, password, { temporary });

describe('sign-in flows through the Amplify Authenticator, in Spanish', () => {
  before(async () => ({ env, idp } = await startE2eWithCognitoAdmin()));
  after(() => closeE2eWithCognitoAdmin(env, idp));

  it('sign up → resend code → confirm code → automatic sign-in (phone width)', async () => {
    const email = `nueva.${run}@acme.example`;
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await page.goto(`${env.web}/page/register`);
    // /page/register opens the Authenticator on "Crear cuenta".
    const tab = page.getByRole('tab', { name: 'Crear cuenta' });
    await tab.waitFor();
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill(NEW_PASSWORD);
    await screenshot(page, 'auth-phone-01-sign-up');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();

    // Confirm Sign Up: the code field and "Reenviar código".
    const codeField = page.getByLabel('Código de confirmación');
    await codeField.waitFor();
    const sent = await lastCode(env, email, 'SignUp');
    await page.getByRole('button', { name: 'Reenviar código' }).click();
    await expectEventually(async () => (await lastCode(env, email, 'ResendConfirmationCode')) === sent, 'the resent code is recorded');
    await screenshot(page, 'auth-phone-02-confirm-sign-up');

    // Give the new customer a tenant (an administrator's job) so the portal admits it after the sign-in.
    await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: env.stack.config.userPoolId, Username: email, GroupName: 'acme' }));
    await codeField.fill(sent);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    // Automatic sign-in after confirmation: straight into the portal, no second password prompt.
    await signedInAs(page, email);
    assert.equal(new URL(page.url()).pathname, '/');
    await screenshot(page, 'auth-phone-03-auto-signed-in');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a self-registered user in no group sees the waiting page, is signed out globally, and staff see the access request in /audit (docs/portal.md#groups-and-tenants)', async () => {
    const email = `singrupo.${run}@example.com`;
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/register`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByLabel('Código de confirmación').waitFor();
    await page.getByLabel('Código de confirmación').fill(await lastCode(env, email, 'SignUp'));
    const signedOut = page.waitForRequest((r) => r.url().startsWith(env.stack.urls.cognito) && (r.headers()['x-amz-target'] ?? '').endsWith('.GlobalSignOut'));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    // The waiting page, in Spanish, naming the account; the session is revoked meanwhile (docs/portal.md#groups-and-tenants: no group → signed out).
    await page.getByRole('heading', { name: 'Cuenta pendiente de aprobación' }).waitFor({ timeout: 20_000 });
    await page.getByText(email).waitFor();
    await page.getByText('Un administrador tiene que concederte acceso', { exact: false }).waitFor();
    await signedOut;
    await page.getByText('Hemos cerrado la sesión.').waitFor();
    // Still there well after the sign-out (it used to vanish within half a second).
    await page.waitForTimeout(1000);
    assert.ok(await page.getByRole('heading', { name: 'Cuenta pendiente de aprobación' }).isVisible());
    await screenshot(page, 'auth-desktop-00-awaiting-access');
    await page.getByRole('button', { name: 'Volver a iniciar sesión' }).click();
    // Back on Sign In (not on the Create Account tab this session started on).
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Iniciar sesión' }).getAttribute('aria-selected'), 'true');
    assert.equal(new URL(page.url()).pathname, '/page/login');
    // The guard logs the reason (one console error); the API refuses the no-group caller's GET /me (403) while
    // the sign-out runs.
    const logged = problems.filter((p) => !p.includes('status of 403'));
    assert.equal(logged.length, 1, logged.join('\n'));
    assert.match(logged[0] ?? '', /^console: \[vigia\] the signed-in user belongs to no group; signing out\b/);
    await context.close();

    // Staff see that someone is waiting: the user pool's trigger audited the sign-in (docs/api.md#access-requests).
    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, 'admin@vigia.example', DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/audit?action=user.access_request`);
    const row = staff.page.getByRole('row').filter({ hasText: email });
    await row.first().waitFor({ timeout: 20_000 });
    assert.match((await row.first().textContent()) ?? '', /Acceso solicitado/);
    await screenshot(staff.page, 'auth-desktop-00b-staff-sees-access-request');
    await staff.context.close();
  });

  it('a wrong password shows the Spanish error in the dismissible alert', async () => {
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await fillSignIn(page, 'ana@acme.example', 'not-the-password');
    const alert = page.getByText('Correo electrónico o contraseña incorrectos.');
    await alert.waitFor();
    await screenshot(page, 'auth-desktop-01-wrong-password');
    await page.getByRole('button', { name: 'Descartar alerta' }).click();
    await alert.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/page/login');
    await context.close();
  });

  it('forgot password → code → new password → sign in with it', async () => {
    const email = `olvido.${run}@acme.example`;
    await createUser(email, 'Vigia-Vieja-2026');
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await page.getByRole('button', { name: '¿Olvidó su contraseña?' }).click();
    await page.getByRole('heading', { name: 'Restablecer contraseña' }).waitFor();
    await page.getByLabel('Escriba su correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar código' }).click();

    const code = page.getByLabel('Código *', { exact: true });
    await code.waitFor();
    const first = await lastCode(env, email, 'ForgotPassword');
    // Resend code: a new ForgotPassword code is recorded.
    await page.getByRole('button', { name: 'Reenviar código' }).click();
    await expectEventually(async () => (await countCodes(email, 'ForgotPassword')) === 2, 'a second reset code is sent');
    assert.equal(first, await lastCode(env, email, 'ForgotPassword'), 'offline codes are the fixed code');
    // A wrong code first: Cognito's CodeMismatchException in Spanish.
    await code.fill('000000');
    await page.getByLabel('Contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByText('Código de verificación no válido, inténtelo de nuevo.').waitFor();
    await screenshot(page, 'auth-desktop-02-reset-wrong-code');

    await code.fill(await lastCode(env, email, 'ForgotPassword'));
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    // Back on Sign In; the new password works.
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    await fillSignIn(page, email, NEW_PASSWORD);
    await signedInAs(page, email);
    // The only failed request is the refused wrong code (HTTP 400 from the user pool).
    assert.deepEqual(problems.filter((p) => !p.includes('status of 400')), []);
    await context.close();
  });

  it('an invited user signs in with the temporary password and must set a new one', async () => {
    const email = `invitado.${run}@acme.example`;
    await createUser(email, 'Temporal-2026!', true);
    // The invitation "e-mail" carries the temporary password.
    const temporary = await lastCode(env, email, 'AdminCreateUser');
    assert.equal(temporary, 'Temporal-2026!');
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await fillSignIn(page, email, temporary);
    await page.getByRole('heading', { name: 'Cambiar contraseña' }).waitFor();
    await page.getByLabel('Contraseña', { exact: true }).fill('corta');
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill('corta');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    // The pool's policy (min 8) refuses it; the message shows in the alert.
    await page.getByRole('alert').first().waitFor();
    await screenshot(page, 'auth-desktop-03-force-new-password');
    await page.getByLabel('Contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await signedInAs(page, email);
    assert.equal(new URL(page.url()).pathname, '/');
    assert.deepEqual(problems.filter((p) => !p.includes('status of 400')), [], 'only the refused short password failed');
    await context.close();
  });

  it('/page/register is hidden when the deployment disallows sign-up', async () => {
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    await routeConfigBlock(context, JSON.stringify({ ...env.stack.config, allowSignUp: false }));
    await page.goto(`${env.web}/page/register`);
    await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/page/login');
    assert.equal(await page.getByRole('tab', { name: 'Crear cuenta' }).count(), 0);
    await screenshot(page, 'auth-desktop-04-no-sign-up');
    await context.close();
  });
});

/** How many codes the local pool sent to `email` for `purpose` (lines of its codes.jsonl). */
async function countCodes(email: string, purpose: string): Promise<number> {
  const text = await readFile(codesFile(path.join(env.dataDir, 'cognito')), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { destination: string; purpose: string })
    .filter((e) => e.destination === email && e.purpose === purpose).length;
}

async function expectEventually(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out: ${what}`);
}
