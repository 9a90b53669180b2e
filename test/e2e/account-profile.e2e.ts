/**
 * `/profile` in real Chromium (docs/portal.md#screens): e-mail, groups and tenants; two-step verification — set up TOTP with the
 * 228 px QR code and the copyable secret, a wrong code refused in Spanish, a right code (RFC 6238, computed here
 * with otplib) turns it on; sign out; sign in answering the Authenticator's TOTP challenge; turn it off; remembered
 * devices (user opt-in device tracking): remember this browser, see it listed with its name and last use, forget
 * it, the list is empty again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateSync } from 'otplib';
import { cognitoAdmin, createAcmeUser, newPage, screenshot, signIn, startE2e, VIEWPORTS, type E2eEnv, signedInAs } from '../support/e2e.js';

const EMAIL = `mfa.${randomUUID().slice(0, 8)}@acme.example`;
const PASSWORD = 'Vigia-Mfa-2026';
const totp = (secret: string): string => generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30 });

let env: E2eEnv;

describe('/profile: account data, TOTP set-up and sign-in with a TOTP code, devices', () => {
  before(async () => {
    env = await startE2e();
    const idp = cognitoAdmin(env);
    await createAcmeUser(idp, env, EMAIL, PASSWORD);
    idp.destroy();
  });
  after(async () => {
    await env?.close();
  });

  it('sets up TOTP on /profile, signs in again with a TOTP code, turns it off', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.web });
    await signIn(page, env.web, EMAIL, PASSWORD);
    await page.goto(`${env.web}/profile`);
    const main = page.getByRole('main');
    await main.getByText(EMAIL).waitFor();
    await main.getByText('Acme Logística S.A.').waitFor();
    await page.getByText('No hay dispositivos recordados.').waitFor();
    await page.getByText('desactivada').waitFor();

    await page.getByRole('button', { name: 'Configurar aplicación de autenticación' }).click();
    const qr = page.getByRole('img', { name: 'Código QR para la aplicación de autenticación' });
    await qr.waitFor();
    assert.deepEqual(await qr.evaluate((img) => {
      const i = img as unknown as { width: number; height: number; naturalWidth: number };
      return [i.width, i.height, i.naturalWidth > 0];
    }), [228, 228, true]);
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await page.getByRole('button', { name: 'Copiar' }).click();
    await page.getByRole('button', { name: 'Copiado' }).waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
    await screenshot(page, 'account-desktop-01-totp-setup');

    await page.getByLabel('Código de la aplicación').fill('000000');
    await page.getByRole('button', { name: 'Verificar y activar' }).click();
    await page.getByText('El código no es correcto.', { exact: false }).waitFor();
    await page.getByLabel('Código de la aplicación').fill(totp(secret));
    await page.getByRole('button', { name: 'Verificar y activar' }).click();
    await page.getByText('La verificación en dos pasos está activada.').waitFor();
    await page.getByText('activada', { exact: true }).waitFor();
    await screenshot(page, 'account-desktop-02-totp-on');

    // Sign out (global), then sign in: the Authenticator asks for the TOTP code.
    await page.goto(`${env.web}/page/logout`);
    await page.waitForURL('**/page/login');
    await page.getByLabel('Correo electrónico').fill(EMAIL);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByRole('heading', { name: 'Confirmar código TOTP' }).waitFor();
    await screenshot(page, 'account-desktop-03-totp-challenge');
    await page.getByLabel('Código *').fill(totp(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await signedInAs(page, EMAIL);

    await page.goto(`${env.web}/profile`);
    await page.getByRole('button', { name: 'Desactivar verificación en dos pasos' }).click();
    await page.getByText('La verificación en dos pasos está desactivada.').waitFor();
    assert.deepEqual(problems.filter((p) => !p.includes('status of 400')), [], 'only the refused wrong code failed');
    await context.close();
  });

  it('remembers this browser, lists it with its name and last use, forgets it', async () => {
    const { page, problems, context } = await newPage(env, VIEWPORTS.desktop);
    await signIn(page, env.web, EMAIL, PASSWORD);
    await page.goto(`${env.web}/profile`);
    const card = page.getByRole('region', { name: 'Dispositivos recordados' });
    await card.getByText('No hay dispositivos recordados.').waitFor();
    await card.getByRole('button', { name: 'Recordar este dispositivo' }).click();
    const list = card.getByRole('list', { name: 'Dispositivos recordados' });
    await list.waitFor();
    const items = list.getByRole('listitem');
    assert.equal(await items.count(), 1);
    // Amplify names the device after the browser (User-Agent Client Hints: platform, brands and versions).
    const text = (await items.first().textContent()) ?? '';
    assert.match(text, /Chromium\/\d+/, `device named after the browser: ${text}`);
    assert.match(text, /Último uso: \d{1,2} \S+ \d{4}, \d{1,2}:\d{2}/);
    await screenshot(page, 'account-desktop-04-device-remembered');

    await items.first().getByRole('button', { name: /^Olvidar / }).click();
    await card.getByText('No hay dispositivos recordados.').waitFor();
    await list.waitFor({ state: 'detached' });
    // The list stays empty after a reload (the device is gone in the user pool, not only in the page).
    await page.reload();
    await card.getByText('No hay dispositivos recordados.').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
