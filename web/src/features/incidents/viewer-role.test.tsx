/**
 * A customer viewer (docs/api.md#customer-roles, `/me` `role`) does not see what it cannot do: no
 * "Agregar incidente" on the incident list; devices/viewer-role.test.tsx for "Reconocer"; an operator (no role
 * group) and staff do. Hidden, not disabled.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { anIncident, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Me } from '../../shared/lib/contract';
import { IncidentListPage } from './IncidentListPage';

const VIEWER: Me = { ...ME_ACME, groups: ['acme', 'customer-viewer'], role: 'viewer' };
const OPERATOR: Me = { ...ME_ACME, role: 'operator' };
const incidents = { items: [anIncident()], nextCursor: null };

describe('customer viewer', () => {
  it('the incident list offers "Agregar incidente" to an operator only', async () => {
    renderSignedIn(<IncidentListPage />, { path: '/incidents', api: fakeApi({ getMe: OPERATOR, listIncidents: incidents }) });
    expect(await screen.findByRole('link', { name: 'Agregar incidente' })).toBeTruthy();
  });

  it('a viewer sees the list without "Agregar incidente"', async () => {
    renderSignedIn(<IncidentListPage />, { path: '/incidents', api: fakeApi({ getMe: VIEWER, listIncidents: incidents }) });
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Agregar incidente' })).toBeNull();
  });

});
