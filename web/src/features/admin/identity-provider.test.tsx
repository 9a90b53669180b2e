/**
 * "Proveedor de identidad de la empresa" on the tenant administration screen (IdentityProviderCard.tsx): state
 * (no configurado → configurado, secret stored, not on the app client), the form's own checks before any request,
 * the API's field errors and IDP_DOMAIN_IN_USE under their fields, save with the secret then without it (write-only
 * field), removal only after the confirmation, and the card on a stage that does not offer it.
 */
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { ApiError, type CallInput } from '../../shared/lib/api';
import type { Me, TenantIdentityProviderState } from '../../shared/lib/contract';
import { fakeApi, ME_STAFF as STAFF_ALL_TENANTS, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import { TenantAdminPage } from './AdminPages';
import { parseDomains } from './IdentityProviderCard';

/** Staff with acme as their only tenant. */
const ME_STAFF: Me = { ...STAFF_ALL_TENANTS, tenants: [{ id: 'acme', name: 'ACME' }] };
const BASE = { available: true, stageProvider: null, providerName: 'tenant-acme', redirectUrl: 'https://vigia-prod.auth.eu-west-1.amazoncognito.com/oauth2/idpresponse', samlEntityId: 'urn:amazon:cognito:sp:eu-west-1_abc' };
const NONE: TenantIdentityProviderState = { ...BASE, provider: null, enabledOnAppClient: false };
const ISSUER = 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000001/v2.0';
const CONFIGURED: TenantIdentityProviderState = {
  ...BASE,
  enabledOnAppClient: true,
  provider: { tenantId: 'acme', providerName: 'tenant-acme', type: 'oidc', issuerUrl: ISSUER, clientId: 'app-1', scopes: ['openid', 'email', 'profile'], emailDomains: ['acme.com'], clientSecretSet: true, updatedAt: '2026-11-25T10:00:00.000Z' },
};

function page(api: ReturnType<typeof fakeApi>) {
  renderSignedIn(
    <Routes>
      <Route path="/admin/tenants/:tenantId" element={<TenantAdminPage />} />
    </Routes>,
    { path: '/admin/tenants/acme', user: STAFF_USER, api },
  );
}
const card = async () => within((await screen.findByRole('heading', { name: 'Proveedor de identidad de la empresa' })).closest('section')!);
const common = { getMe: ME_STAFF, getTenant: { id: 'acme', name: 'ACME' }, listTenantUsers: { items: [] }, listStaff: { items: [] } };

describe('company identity provider card', () => {
  it('parses domains from lines, commas and spaces, lower-cased', () => {
    expect(parseDomains(' Acme.com,\nacme-logistica.es  otra.org ')).toEqual(['acme.com', 'acme-logistica.es', 'otra.org']);
  });

  it('not configured → checks the form before sending → saves with the secret; the state then says configured and the secret field is empty again', async () => {
    let state: TenantIdentityProviderState = NONE;
    const put = vi.fn(({ body }: CallInput<'putTenantIdentityProvider'>) => {
      state = CONFIGURED;
      expect(body).toEqual({ type: 'oidc', issuerUrl: ISSUER, clientId: 'app-1', clientSecret: 's3cr3t', scopes: ['openid', 'email', 'profile'], emailDomains: ['acme.com', 'acme.es'] });
      return CONFIGURED;
    });
    page(fakeApi({ ...common, getTenantIdentityProvider: () => state, putTenantIdentityProvider: put }));
    const c = await card();
    expect((await c.findByTestId('idp-status')).textContent).toBe('No configurado');
    expect(c.getByText(BASE.redirectUrl)).toBeTruthy();
    expect(c.queryByRole('button', { name: 'Eliminar proveedor' })).toBeNull();

    fireEvent.change(c.getByLabelText('URL del emisor (issuer)'), { target: { value: 'http://login.example.com' } });
    fireEvent.change(c.getByLabelText(/Dominios de correo/), { target: { value: 'acme.com, no es dominio' } });
    fireEvent.click(c.getByRole('button', { name: 'Guardar proveedor' }));
    expect(await c.findByText('Escribe una dirección https:// completa.')).toBeTruthy();
    expect(c.getByText('Indica el ID de cliente.')).toBeTruthy();
    expect(c.getByText('Indica el secreto de cliente (obligatorio la primera vez).')).toBeTruthy();
    expect(c.getByText('Dominio de correo no válido: no')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();

    fireEvent.change(c.getByLabelText('URL del emisor (issuer)'), { target: { value: ISSUER } });
    fireEvent.change(c.getByLabelText('ID de cliente'), { target: { value: 'app-1' } });
    fireEvent.change(c.getByLabelText('Secreto de cliente'), { target: { value: 's3cr3t' } });
    fireEvent.change(c.getByLabelText(/Dominios de correo/), { target: { value: 'ACME.com\nacme.es' } });
    fireEvent.click(c.getByRole('button', { name: 'Guardar proveedor' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    await waitFor(async () => expect((await card()).getByTestId('idp-status').textContent).toBe('Configurado · Secreto de cliente guardado'));
    expect(((await card()).getByLabelText('Secreto de cliente') as HTMLInputElement).value).toBe('');
  });

  it('configured: a change without the secret keeps it (no clientSecret sent); the API\u2019s field errors and IDP_DOMAIN_IN_USE show under their fields', async () => {
    const put = vi
      .fn((_i: CallInput<'putTenantIdentityProvider'>): TenantIdentityProviderState => CONFIGURED)
      .mockImplementationOnce(() => {
        throw new ApiError({ kind: 'client', status: 409, code: 'IDP_DOMAIN_IN_USE', message: 'taken', details: { fields: ['emailDomains'], domains: ['globex.com'] } });
      })
      .mockImplementationOnce(() => {
        throw new ApiError({ kind: 'client', status: 400, code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'body.issuerUrl', message: 'Cognito no pudo usar el emisor OIDC' }] });
      });
    page(fakeApi({ ...common, getTenantIdentityProvider: CONFIGURED, putTenantIdentityProvider: put }));
    const c = await card();
    expect((await c.findByTestId('idp-status')).textContent).toBe('Configurado · Secreto de cliente guardado');
    expect(c.getByText('Déjalo vacío para conservar el guardado')).toBeTruthy();
    fireEvent.change(c.getByLabelText(/Dominios de correo/), { target: { value: 'acme.com globex.com' } });
    fireEvent.click(c.getByRole('button', { name: 'Guardar proveedor' }));
    expect(await c.findByText('Estos dominios ya llevan a otro proveedor de identidad: globex.com')).toBeTruthy();
    fireEvent.click(c.getByRole('button', { name: 'Guardar proveedor' }));
    expect(await c.findByText('Cognito no pudo usar el emisor OIDC')).toBeTruthy();
    fireEvent.click(c.getByRole('button', { name: 'Guardar proveedor' }));
    expect(await c.findByText('Proveedor de identidad guardado.')).toBeTruthy();
    for (const [call] of put.mock.calls) expect(call.body).not.toHaveProperty('clientSecret');
  });

  it('remove asks first: Cancelar sends nothing; confirming deletes and shows no configurado', async () => {
    let state: TenantIdentityProviderState = CONFIGURED;
    const del = vi.fn((_i: CallInput<'deleteTenantIdentityProvider'>) => {
      state = NONE;
      return NONE;
    });
    page(fakeApi({ ...common, getTenantIdentityProvider: () => state, deleteTenantIdentityProvider: del }));
    const c = await card();
    fireEvent.click(await c.findByRole('button', { name: 'Eliminar proveedor' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('¿Eliminar el proveedor de identidad de ACME?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(del).not.toHaveBeenCalled();
    fireEvent.click(c.getByRole('button', { name: 'Eliminar proveedor' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Eliminar proveedor' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith({ params: { tenantId: 'acme' } }));
    await waitFor(async () => expect((await card()).getByTestId('idp-status').textContent).toBe('No configurado'));
  });

  it('SAML: metadata URL and the entity id to register; a provider dropped from the app client is flagged', async () => {
    const saml: TenantIdentityProviderState = {
      ...BASE,
      enabledOnAppClient: false,
      provider: { tenantId: 'acme', providerName: 'tenant-acme', type: 'saml', metadataUrl: 'https://idp.acme.com/metadata.xml', emailDomains: ['acme.com'], clientSecretSet: false, updatedAt: '2026-11-25T10:00:00.000Z' },
    };
    page(fakeApi({ ...common, getTenantIdentityProvider: saml }));
    const c = await card();
    expect(((await c.findByLabelText('URL de metadatos SAML')) as HTMLInputElement).value).toBe('https://idp.acme.com/metadata.xml');
    expect(c.getByText('urn:amazon:cognito:sp:eu-west-1_abc')).toBeTruthy();
    expect(c.getByRole('alert').textContent).toContain('no está activo en el cliente de aplicación');
  });

  it('a stage without staff-configured providers: the card says so and shows no form', async () => {
    page(fakeApi({ ...common, getTenantIdentityProvider: { ...NONE, available: false, redirectUrl: null, samlEntityId: null } }));
    const c = await card();
    expect(await c.findByText(/no admite proveedores configurados desde la administración/)).toBeTruthy();
    expect(c.queryByRole('button', { name: 'Guardar proveedor' })).toBeNull();
  });

  it('the provider of the stage\u2019s providers file bound to the tenant shows as what routes its domain, on a stage with and without staff-configured providers', async () => {
    const stageProvider = { name: 'AcmeIdP', type: 'oidc' as const, emailDomains: ['acme.example'] };
    page(fakeApi({ ...common, getTenantIdentityProvider: { ...NONE, stageProvider } }));
    let c = await card();
    expect((await c.findByTestId('idp-stage-provider')).textContent).toMatch(/«AcmeIdP» \(OIDC\) lleva a este cliente a quien inicia sesión con un correo de acme\.example/);
    expect(c.getByTestId('idp-status').textContent).toBe('No configurado aquí (el del despliegue está activo)');
    cleanup();
    page(fakeApi({ ...common, getTenantIdentityProvider: { ...NONE, available: false, redirectUrl: null, samlEntityId: null, stageProvider } }));
    c = await card();
    expect((await c.findByTestId('idp-stage-provider')).textContent).toMatch(/AcmeIdP/);
    expect(c.queryByRole('button', { name: 'Guardar proveedor' })).toBeNull();
  });
});
