/** The escalation contacts page (docs/portal.md#escalation-contacts) and its form checks (contact-draft.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { ApiError, type CallInput } from '../../shared/lib/api';
import type { EscalationContacts } from '../../shared/lib/contract';
import { EscalationContactsPage } from './EscalationContactsPage';
import { apiErrors, blankDraft, contactOf, draftErrors, draftOf, move } from './contact-draft';

const SAVED: EscalationContacts = {
  tenantId: 'acme',
  version: 3,
  contacts: [
    { name: 'Marta Ruiz', role: 'CISO', phone: '+34911234567', email: 'marta@acme.test', severities: ['critical'], hours: '24x7' },
    { name: 'Luis Gil', phone: '+34600111222', email: 'luis@acme.test', severities: ['critical', 'high'], hours: { days: ['mon', 'fri'], from: '22:00', to: '06:00', timeZone: 'Europe/Madrid' } },
  ],
  updatedAt: '2026-03-01T10:00:00.000Z',
  updatedBy: 'ana@acme.test',
};

afterEach(() => vi.restoreAllMocks());

describe('contact drafts', () => {
  it('round-trip a saved contact, both hours shapes', () => {
    for (const c of SAVED.contacts) expect(contactOf(draftOf(c))).toEqual(c);
  });

  it('are checked with the contract schema: each problem under its field, in the form\u2019s words', () => {
    const d = { ...blankDraft('Europe/Madrid'), name: ' ', phone: '600 11', email: 'x@', severities: [], days: [], from: '08:00', to: '08:00' };
    const errors = draftErrors([draftOf(SAVED.contacts[0]!), d], 3);
    expect(Object.keys(errors).sort()).toEqual(['1.days', '1.email', '1.name', '1.phone', '1.severities', '1.to']);
    expect(errors['1.phone']).toMatch(/formato internacional/);
    expect(draftErrors([draftOf(SAVED.contacts[1]!)], 3)).toEqual({});
  });

  it('map the API\u2019s 400 details onto the same keys, anything else onto the form', () => {
    const e = new ApiError({ kind: 'client', status: 400, code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'body.contacts.2.hours.timeZone', message: 'unknown IANA time zone' }, { path: 'body.contacts', message: 'too many' }] });
    expect(apiErrors(e)).toEqual({ '2.timeZone': 'unknown IANA time zone', form: expect.stringContaining('too many') });
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});

describe('escalation contacts page', { timeout: 20_000 }, () => {
  it('shows the saved list in calling order, reorders, adds one and saves the whole list at the version read', async () => {
    const put = vi.fn((i: CallInput<'putEscalationContacts'>) => ({ ...SAVED, version: i.body.version + 1, contacts: i.body.contacts }));
    const api = fakeApi({ getMe: ME_ACME, getEscalationContacts: SAVED, putEscalationContacts: put });
    renderSignedIn(<EscalationContactsPage />, { path: '/escalation-contacts', api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contactos de escalado' })).toBeTruthy();
    const first = await screen.findByRole('group', { name: 'Contacto 1 · Marta Ruiz' });
    expect((within(first).getByLabelText('Teléfono') as HTMLInputElement).value).toBe('+34911234567');
    expect((within(first).getByRole('radio', { name: 'Siempre (24x7)' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Bajar Marta Ruiz' }));
    expect(screen.getByRole('group', { name: 'Contacto 1 · Luis Gil' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Añadir contacto' }));
    const third = screen.getByRole('group', { name: 'Contacto 3' });
    // Saving with the new contact empty: nothing sent, each problem under its field.
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contactos' }));
    expect(await screen.findByText('Revisa los campos marcados.')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
    const phone = within(third).getByLabelText('Teléfono');
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(`${phone.id}-error`)?.textContent).toMatch(/formato internacional/);
    fireEvent.change(within(third).getByLabelText('Nombre'), { target: { value: 'Pilar Soto' } });
    fireEvent.change(phone, { target: { value: '+34 699 000 111' } });
    fireEvent.change(within(third).getByLabelText('Correo electrónico'), { target: { value: 'pilar@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contactos' }));
    expect(await screen.findByText('Contactos guardados.', undefined, { timeout: 5000 })).toBeTruthy();
    expect(put).toHaveBeenCalledTimes(1);
    const body = put.mock.calls[0]![0].body;
    expect(body.version).toBe(3);
    expect(body.contacts.map((c) => c.name)).toEqual(['Luis Gil', 'Marta Ruiz', 'Pilar Soto']);
    expect(body.contacts[2]).toMatchObject({ phone: '+34699000111', severities: ['critical', 'high'], hours: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' } });
  });

  it('says so and reloads the current list when someone saved in between (409 VERSION_CONFLICT)', async () => {
    let reads = 0;
    const api = fakeApi({
      getMe: ME_ACME,
      getEscalationContacts: () => (++reads === 1 ? SAVED : { ...SAVED, version: 4, contacts: [SAVED.contacts[1]!] }),
      putEscalationContacts: () => {
        throw new ApiError({ kind: 'client', status: 409, code: 'VERSION_CONFLICT', message: 'stale' });
      },
    });
    renderSignedIn(<EscalationContactsPage />, { path: '/escalation-contacts', api });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar Marta Ruiz' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar contactos' }));
    expect(await screen.findByText(/Otra persona cambió los contactos/)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Contacto 1 · Luis Gil' })).toBeTruthy());
    expect(screen.queryByRole('group', { name: /Contacto 2/ })).toBeNull();
  });

  it('offers "Añadir contacto" on an empty list, with the empty state', async () => {
    const api = fakeApi({ getMe: ME_ACME, getEscalationContacts: { ...SAVED, version: 0, contacts: [], updatedAt: null, updatedBy: null } });
    renderSignedIn(<EscalationContactsPage />, { path: '/escalation-contacts', api });
    expect(await screen.findByText(/Aún no hay contactos de escalado/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Añadir contacto' })).toBeTruthy();
    // Nothing to save until something changes.
    expect((screen.getByRole('button', { name: 'Guardar contactos' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Añadir contacto' }));
    expect((screen.getByRole('button', { name: 'Guardar contactos' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
