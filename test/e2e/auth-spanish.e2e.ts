/**
 * The sign-in widget stays Spanish where Amplify UI leaves English (docs/portal.md#sign-in,
 * #identity-service-errors), and Verify Contact works (docs/portal.md#sign-in), in real Chromium against a fresh
 * local stack:
 *  - a wrong sign-up code (the local pool's "Incorrect confirmation code") and a wrong TOTP code at sign-in
 *    (real Cognito's "Invalid code received for user", answered by a routed response) show Spanish texts;
 *  - after `/page/logout` opened directly, the password switch's screen-reader texts are Spanish;
 *  - a user whose e-mail is not verified sees "Verificar contacto" and "Confirmar" in Spanish, and reaches the
 *    portal both by skipping and by verifying with the code (then the e-mail is verified in the pool).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AdminGetUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { closeE2eWithCognitoAdmin, startE2eWithCognitoAdmin, createAcmeUser, fillSignIn, lastCode, newPage, screenshot, signedInAs, signIn, VIEWPORTS, type E2eEnv } from '../support/e2e.js';

const run = randomUUID().slice(0, 8);
const PASSWORD = 'Vigia-Prueba-2026';

let env: E2eEnv;
let idp: CognitoIdentityProviderClient;

/** An Acme user created by an administrator with a permanent password and `email_verified` as given. */
const createUser = (email: string, emailVerified: boolean) => createAcmeUser(idp, env, email, PASSWORD, { emailVerified });

const emailVerified = async (email: string): Promise<string | undefined> =>
  (await idp.send(new AdminGetUserCommand({ UserPoolId: env.stack.config.userPoolId, Username: email }))).UserAttributes?.find((a) => a.Name === 'email_verified')?.Value;

describe('sign-in widget: Spanish error and screen-reader texts, Verify Contact', () => {
  before(async () => ({ env, idp } = await startE2eWithCognitoAdmin()));
  after(() => closeE2eWithCognitoAdmin(env, idp));

  it('a wrong sign-up code shows a Spanish text, not "Incorrect confirmation code"', async () => {
    const email = `codigo.${run}@example.com`;
    const { page, context } = await newPage(env, VIEWPORTS.phone);
    await page.goto(`${env.web}/page/register`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirmar contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    const code = page.getByLabel('Código de confirmación');
    await code.waitFor();
    const sent = await lastCode(env, email, 'SignUp');
    await code.fill(sent === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('El código no es correcto. Compruébelo e inténtelo de nuevo.').waitFor();
    assert.equal(await page.getByText('Incorrect confirmation code').count(), 0);
    await screenshot(page, 'auth-es-phone-01-wrong-sign-up-code');
    await context.close();
  });

  it('a wrong TOTP code at sign-in ("Invalid code received for user") shows a Spanish text', async () => {
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    // Real Cognito's answer to a wrong SOFTWARE_TOKEN_MFA code (the local pool words it differently).
    await page.route(`${env.stack.urls.cognito}/**`, async (route) => {
      const req = route.request();
      const target = req.headers()['x-amz-target'] ?? '';
      if (target.endsWith('.RespondToAuthChallenge') && (req.postData() ?? '').includes('SOFTWARE_TOKEN_MFA_CODE')) {
        await route.fulfill({
          status: 400,
          headers: { 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'CodeMismatchException', 'Access-Control-Allow-Origin': '*' },
          body: JSON.stringify({ __type: 'CodeMismatchException', message: 'Invalid code received for user' }),
        });
        return;
      }
      await route.continue();
    });
    await page.goto(`${env.web}/page/login`);
    await fillSignIn(page, 'admin@vigia.example', DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Confirmar código TOTP' }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Código *').fill('000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('El código no es correcto. Escriba el código que muestra ahora su aplicación de autenticación.').waitFor();
    assert.equal(await page.getByText('Invalid code received for user').count(), 0);
    await screenshot(page, 'auth-es-desktop-02-wrong-totp');
    await context.close();
  });

  it('after /page/logout opened directly, the password switch speaks Spanish', async () => {
    const { page, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, 'ana@acme.example', DEMO_PASSWORD);
    // A fresh load of /page/logout: the Authenticator was never shown in this page's life before the sign-out.
    await page.goto(`${env.web}/page/logout`);
    await page.waitForURL((u) => u.pathname === '/page/login', { timeout: 20_000 });
    const toggle = page.locator('button.amplify-field__show-password').first();
    await toggle.waitFor();
    await page.waitForFunction("document.querySelector('button.amplify-field__show-password')?.getAttribute('aria-label') === 'Mostrar contraseña'");
    const hidden = toggle.locator('.amplify-visually-hidden');
    assert.equal(await hidden.textContent(), 'La contraseña está oculta');
    await toggle.click();
    await page.waitForFunction("document.querySelector('button.amplify-field__show-password .amplify-visually-hidden')?.textContent === 'La contraseña está visible'");
    const body = await page.evaluate<string>('document.body.innerHTML');
    for (const english of ['Show password', 'Password is hidden', 'Password is shown']) assert.ok(!body.includes(english), `"${english}" left on the page`);
    await context.close();
  });

  it('Verify Contact: an unverified e-mail can be skipped, and the portal opens', async () => {
    const email = `sinverificar.omitir.${run}@acme.example`;
    await createUser(email, false);
    const { page, problems, context } = await newPage(env, VIEWPORTS.phone);
    await page.goto(`${env.web}/page/login`);
    await fillSignIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'La recuperación de la cuenta requiere información de contacto verificada' }).waitFor({ timeout: 20_000 });
    await page.getByRole('radio', { name: /Correo electrónico/ }).waitFor();
    await page.getByRole('button', { name: 'Verificar' }).waitFor();
    // The masked address wraps: no sideways scroll at 375 px.
    assert.ok(await page.evaluate<boolean>('document.documentElement.scrollWidth <= innerWidth'), 'the verify-contact screen is wider than the phone');
    await screenshot(page, 'auth-es-phone-03-verify-contact');
    await page.getByRole('button', { name: 'Omitir' }).click();
    await signedInAs(page, email);
    assert.equal(await emailVerified(email), 'false');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('Verify Contact: the code sent to the e-mail verifies it, and the portal opens', async () => {
    const email = `sinverificar.codigo.${run}@acme.example`;
    await createUser(email, false);
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await page.goto(`${env.web}/page/login`);
    await fillSignIn(page, email, PASSWORD);
    await page.getByRole('radio', { name: /Correo electrónico/ }).check({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Verificar' }).click();
    // Confirm Verify: code field, Enviar, Omitir.
    const code = page.getByLabel('Código *', { exact: true });
    await code.waitFor();
    await page.getByRole('button', { name: 'Omitir' }).waitFor();
    await screenshot(page, 'auth-es-desktop-04-confirm-verify');
    await code.fill(await lastCode(env, email, 'GetUserAttributeVerificationCode'));
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await signedInAs(page, email);
    assert.equal(await emailVerified(email), 'true');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
