/**
 * Access requests and people by name in the browser (docs/portal.md#administration, docs/api.md#access-requests):
 * against a fresh `npm start`-equivalent stack, in real Chromium,
 *  - two users in no customer sign in (the portal shows "Cuenta pendiente de aprobación"); staff find both under
 *    "Solicitudes de acceso", grant the first to Acme ("Conceder") and dismiss the second ("Descartar", after the
 *    confirmation dialog); the first signs in again and lands in Acme; the second is listed as "Descartada";
 *  - the audit log names the granted user by e-mail, not by its internal id;
 *  - the staff list offers no "Quitar acceso SOC" on one's own row;
 *  - the screen holds 375 px without sideways scroll (screenshots at 375 and 1440 px).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AdminCreateUserCommand, AdminSetUserPasswordCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { closeE2eWithCognitoAdmin, startE2eWithCognitoAdmin, fillSignIn, newPage, screenshot, signedInAs, signIn, VIEWPORTS, type E2eEnv, settled, noSidewaysScroll } from '../support/e2e.js';

const ADMIN = 'admin@vigia.example';
const PASSWORD = 'Solicitud-e2e-8x';
const run = randomUUID().slice(0, 6);
const GRANTED = `nueva-${run}@example.com`;
const DISMISSED = `otra-${run}@example.com`;
let env: E2eEnv;
let idp: CognitoIdentityProviderClient;


/** A confirmed user with a verified e-mail and a permanent password, in no group (as a self-registered one). */
async function userWithoutTenant(email: string): Promise<void> {
  const UserPoolId = env.stack.config.userPoolId;
  await idp.send(new AdminCreateUserCommand({ UserPoolId, Username: email, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }] }));
  await idp.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: PASSWORD, Permanent: true }));
}

/** `email` signs in with no customer: the portal says the account waits for approval. */
async function signsInWaiting(email: string): Promise<void> {
  const { page, context } = await newPage(env, VIEWPORTS.desktop);
  await page.goto(`${env.web}/page/login`);
  await fillSignIn(page, email, PASSWORD);
  await page.getByRole('heading', { name: 'Cuenta pendiente de aprobación' }).waitFor({ timeout: 20_000 });
  await context.close();
}


describe('access requests', () => {
  before(async () => ({ env, idp } = await startE2eWithCognitoAdmin()));
  after(() => closeE2eWithCognitoAdmin(env, idp));

  it('staff grant one request to Acme and dismiss another; the granted user then signs in to Acme; the audit log names people by e-mail', async () => {
    await userWithoutTenant(GRANTED);
    await userWithoutTenant(DISMISSED);
    await signsInWaiting(GRANTED);
    await signsInWaiting(DISMISSED);

    const staff = await newPage(env, VIEWPORTS.desktop);
    await signIn(staff.page, env.web, ADMIN, DEMO_PASSWORD);
    await staff.page.goto(`${env.web}/admin/tenants`);
    await settled(staff.page);
    await staff.page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Solicitudes de acceso' }).click();
    await staff.page.getByRole('heading', { level: 1, name: 'Solicitudes de acceso' }).waitFor();
    await settled(staff.page);
    const grantedRow = staff.page.locator('tr', { hasText: GRANTED });
    const dismissedRow = staff.page.locator('tr', { hasText: DISMISSED });
    await grantedRow.waitFor();
    await dismissedRow.waitFor();
    // Newest first: the second sign-in is above the first.
    const rows = await staff.page.locator('tbody tr').allTextContents();
    assert.ok(rows.findIndex((r) => r.includes(DISMISSED)) < rows.findIndex((r) => r.includes(GRANTED)), 'newest first');
    assert.match((await grantedRow.textContent()) ?? '', /Cuenta propia \(example\.com\)/);
    await screenshot(staff.page, 'access-requests-01-desktop');

    // Conceder without a customer says what is missing; with Acme it grants.
    await grantedRow.getByRole('button', { name: 'Conceder' }).click();
    await staff.page.getByRole('alert').getByText(`Elige primero el cliente al que añadir a ${GRANTED}.`).waitFor();
    await grantedRow.getByLabel(`Cliente para ${GRANTED}`).selectOption('acme');
    await grantedRow.getByRole('button', { name: 'Conceder' }).click();
    await staff.page.getByRole('status').getByText(`${GRANTED} tiene ahora acceso a Acme Logística S.A.`).waitFor();
    await grantedRow.waitFor({ state: 'detached' });

    // Descartar asks first.
    await dismissedRow.getByRole('button', { name: 'Descartar' }).click();
    const dialog = staff.page.getByRole('alertdialog');
    await dialog.getByText(`¿Descartar la solicitud de acceso de ${DISMISSED}?`).waitFor();
    await dialog.getByRole('button', { name: 'Descartar' }).click();
    await staff.page.getByRole('status').getByText(`Solicitud de ${DISMISSED} descartada.`).waitFor();
    await dismissedRow.waitFor({ state: 'detached' });
    await staff.page.getByLabel('Estado').selectOption('dismissed');
    await staff.page.locator('tr', { hasText: DISMISSED }).getByText('Descartada').waitFor();
    await screenshot(staff.page, 'access-requests-02-desktop-dismissed');

    // The granted user signs in again and lands in Acme.
    const granted = await newPage(env, VIEWPORTS.desktop);
    await granted.page.goto(`${env.web}/page/login`);
    await fillSignIn(granted.page, GRANTED, PASSWORD);
    await signedInAs(granted.page, GRANTED);
    const entries = (await granted.page.evaluate('Object.entries(localStorage)')) as Array<[string, string]>;
    const token = entries.find(([k]) => k.endsWith('.idToken'))?.[1] ?? '';
    const me = (await (await fetch(`${env.stack.urls.api}/me`, { headers: { authorization: token } })).json()) as { tenants: { id: string }[] };
    assert.deepEqual(
      me.tenants.map((t) => t.id),
      ['acme'],
    );
    await screenshot(granted.page, 'access-requests-03-granted-user');

    // The audit log names the user by e-mail.
    await staff.page.goto(`${env.web}/audit?action=access_request.grant`);
    await settled(staff.page);
    const entry = staff.page.locator('tr', { hasText: 'Solicitud de acceso concedida' }).first();
    await entry.waitFor();
    assert.match((await entry.textContent()) ?? '', new RegExp(GRANTED.replace(/[.]/g, '\\.')));
    await screenshot(staff.page, 'access-requests-04-audit-desktop');

    // No "Quitar acceso SOC" on one's own row.
    await staff.page.goto(`${env.web}/admin/staff`);
    await settled(staff.page);
    const own = staff.page.locator('tr', { hasText: ADMIN });
    await own.waitFor();
    assert.equal(await own.getByRole('button', { name: 'Quitar acceso SOC' }).count(), 0);
    await own.getByText('(tú)').waitFor();
  });

  it('the screen holds 375 px', async () => {
    const mobile = await newPage(env, VIEWPORTS.phone);
    await userWithoutTenant(`movil-${run}@example.com`);
    await signsInWaiting(`movil-${run}@example.com`);
    await signIn(mobile.page, env.web, ADMIN, DEMO_PASSWORD);
    await mobile.page.goto(`${env.web}/admin/access-requests`);
    await settled(mobile.page);
    await mobile.page.locator('tr', { hasText: `movil-${run}@example.com` }).waitFor();
    await noSidewaysScroll(mobile.page);
    await screenshot(mobile.page, 'access-requests-05-mobile');
    await mobile.page.goto(`${env.web}/audit?action=access_request.grant`);
    await settled(mobile.page);
    await noSidewaysScroll(mobile.page);
    await screenshot(mobile.page, 'access-requests-06-audit-mobile');
  });
});
