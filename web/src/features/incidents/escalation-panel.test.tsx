/** "A quién llamar" on an incident for staff (EscalationContactsPanel.tsx, docs/portal.md#incident-detail). */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeApi, ME_STAFF, renderSignedIn, STAFF_USER } from '../../shared/lib/test-utils';
import type { EscalationContacts } from '../../shared/lib/contract';
import { EscalationContactsPanel } from './EscalationContactsPanel';

const LIST: EscalationContacts = {
  tenantId: 'globex',
  version: 2,
  contacts: [
    { name: 'Oficina', phone: '+34911000001', email: 'oficina@globex.test', severities: ['critical', 'high'], hours: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', timeZone: 'Europe/Madrid' } },
    { name: 'Guardia', role: 'On-call', phone: '+34911000002', email: 'guardia@globex.test', severities: ['critical'], hours: '24x7', notes: 'Solo si no contesta la oficina.' },
    { name: 'Bajas', phone: '+34911000003', email: 'bajas@globex.test', severities: ['low'], hours: '24x7' },
  ],
  updatedAt: '2026-03-01T10:00:00.000Z',
  updatedBy: 'admin@globex.test',
};

function show(severity: 'critical' | 'medium', now: string, list: EscalationContacts = LIST) {
  const api = fakeApi({ getMe: ME_STAFF, getEscalationContacts: list });
  renderSignedIn(<EscalationContactsPanel tenantId="globex" severity={severity} now={new Date(now)} />, { user: STAFF_USER, api });
  return api;
}

describe('escalation contacts on an incident', { timeout: 20_000 }, () => {
  it('lists the contacts of the incident\u2019s severity, those available now first, read for the incident\u2019s tenant', async () => {
    // Saturday 2026-03-07 12:00 in Madrid: the office is closed, the on-call line is not.
    const api = show('critical', '2026-03-07T11:00:00Z');
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Guardia', 'Oficina']);
    expect(within(items[0]!).getByText('Disponible ahora')).toBeTruthy();
    expect(within(items[1]!).getByText('Fuera de horario')).toBeTruthy();
    expect(within(items[0]!).getByRole('link', { name: /^Llamar a Guardia:\s?\+34911000002$/ }).getAttribute('href')).toBe('tel:+34911000002');
    expect(within(items[1]!).getByText('lun, mar, mié, jue, vie · 09:00–18:00 (Europe/Madrid)')).toBeTruthy();
    expect(api.call).toHaveBeenCalledWith('getEscalationContacts', expect.objectContaining({ query: { tenant: 'globex' } }));
  });

  it('on a weekday at 10:00 Madrid the office comes first, in the tenant\u2019s calling order', async () => {
    show('critical', '2026-03-04T09:00:00Z');
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Oficina', 'Guardia']);
  });

  it('says when no contact covers the severity, and when the customer gave none', async () => {
    show('medium', '2026-03-04T09:00:00Z');
    expect(await screen.findByText('El cliente no tiene contactos de escalado para esta severidad.')).toBeTruthy();
  });

  it('says when the customer gave none at all', async () => {
    show('critical', '2026-03-04T09:00:00Z', { ...LIST, version: 0, contacts: [] });
    expect(await screen.findByText('El cliente no ha indicado contactos de escalado.')).toBeTruthy();
  });
});
