/**
 * The bell and the activity feed in English (issue 32 point 6): an event stored as a message key and
 * parameters is shown in the reader's language (an alarm names the device by its name), an event stored
 * before messages existed shows its stored Spanish title.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { anActivityEvent, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { ActivityEvent } from '../../shared/lib/contract';
import { setMessagesLanguage } from '../../shared/lib/messages';
import { Disclosure } from '../../shared/ui/Disclosure';
import { ActivityFeedPage } from './ActivityFeedPage';
import { NotificationsBell, NotificationsPanel } from './NotificationsPanel';
import { activityTitle } from './event-title';

const alarm = anActivityEvent(2, {
  actor: null,
  kind: 'alarm.raised',
  subject: { type: 'alarm', id: 'dev-007/ALM-1' },
  title: 'Alarma alta en FW Madrid: CPU al 95 %',
  message: { key: 'activity.alarm.raised', params: { deviceId: 'dev-007', deviceName: 'FW Madrid', severity: 'high', title: 'CPU al 95 %' } },
  link: '/devices/detail/dev-007?tenant=acme',
});
const status = anActivityEvent(3, { actor: null, message: { key: 'activity.incident.status_changed', params: { incidentId: 'INC-000003', from: 'new', to: 'in_progress' } } });
const old: ActivityEvent = { ...status, eventId: '01J00000000000000000000001', at: '2026-03-01T10:01:00.000Z', title: 'Nuevo incidente INC-000001: Phishing', message: undefined };

afterEach(() => setMessagesLanguage('es'));

describe('activity titles in the reader’s language', () => {
  it('the bell in English: English titles, the device by name, an old event’s stored title', async () => {
    setMessagesLanguage('en');
    const api = fakeApi({ getMe: ME_ACME, getActivityUnread: { count: 0, capped: false, seenAt: null }, listActivity: { items: [status, alarm, old], nextCursor: null } });
    renderSignedIn(
      <Disclosure label={<NotificationsBell />} ariaLabel="bell" buttonClassName="icon-btn">
        {(close) => <NotificationsPanel onNavigate={close} />}
      </Disclosure>,
      { api },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'bell' }));
    const feed = await screen.findByRole('list', { name: 'Latest notifications' });
    const links = within(feed).getAllByRole('link').map((a) => a.textContent);
    expect(links).toEqual(['INC-000003: status “New” → “In progress”', 'High alarm on FW Madrid: CPU al 95 %', 'Nuevo incidente INC-000001: Phishing']);
    expect(feed.textContent).not.toContain('dev-007');
  });

  it('the feed page in Spanish renders the same events from the Spanish catalogue', async () => {
    const api = fakeApi({ getMe: ME_ACME, getActivityUnread: { count: 0, capped: false, seenAt: null }, listActivity: { items: [status, alarm], nextCursor: null } });
    renderSignedIn(<ActivityFeedPage />, { api });
    expect(await screen.findByRole('link', { name: 'Alarma alta en FW Madrid: CPU al 95 %' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'INC-000003: estado «Nuevo» → «En curso»' })).toBeTruthy();
  });

  it('falls back to the device id and to the stored title for an unknown key', () => {
    expect(activityTitle({ ...alarm, message: { key: 'activity.alarm.cleared', params: { deviceId: 'dev-007', title: 'CPU' } } })).toBe('Alarma resuelta en dev-007: CPU');
    expect(activityTitle({ ...alarm, message: { key: 'activity.nope.nope', params: {} } })).toBe(alarm.title);
  });
});
