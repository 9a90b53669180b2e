/**
 * A customer viewer (docs/api.md#customer-roles, `/me` `role`) does not see what it cannot do: no
 * "Reconocer" on open device alarms; an operator (no role
 * group) and staff do. Hidden, not disabled.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { anAlarm, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Me } from '../../shared/lib/contract';
import { DeviceAlarmsPage } from './DeviceAlarmsPage';

const VIEWER: Me = { ...ME_ACME, groups: ['acme', 'customer-viewer'], role: 'viewer' };
const OPERATOR: Me = { ...ME_ACME, role: 'operator' };
const alarms = { items: [anAlarm({ state: 'active' })], nextCursor: null };

describe('customer viewer', () => {
  it('open alarms: "Reconocer" for an operator, none for a viewer', async () => {
    const op = renderSignedIn(<DeviceAlarmsPage />, { path: '/alarms', api: fakeApi({ getMe: OPERATOR, listAlarms: alarms }) });
    expect(await screen.findByRole('button', { name: /Reconocer/ })).toBeTruthy();
    op.unmount();
    renderSignedIn(<DeviceAlarmsPage />, { path: '/alarms', api: fakeApi({ getMe: VIEWER, listAlarms: alarms }) });
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reconocer/ })).toBeNull();
  });
});
