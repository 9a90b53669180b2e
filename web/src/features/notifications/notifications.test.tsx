/** The bell (unread badge, latest events, "Marcar todo como leído") and the feed page (docs/notifications.md). */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anActivityEvent, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { CallInput } from '../../shared/lib/api';
import type { ActivityUnread } from '../../shared/lib/contract';
import { Disclosure } from '../../shared/ui/Disclosure';
import { ActivityFeedPage } from './ActivityFeedPage';
import { NotificationsBell, NotificationsPanel, useBellLabel } from './NotificationsPanel';

/** Activity event `n` (`anActivityEvent`). */
const ev = anActivityEvent;

function Bell() {
  const label = useBellLabel();
  return (
    <Disclosure label={<NotificationsBell />} ariaLabel={label} buttonClassName="icon-btn">
      {(close) => <NotificationsPanel onNavigate={close} />}
    </Disclosure>
  );
}

describe('bell', () => {
  it('shows the unread count, the latest events with "Nuevo", and marks all as read', async () => {
    let unread: ActivityUnread = { count: 2, capped: false, seenAt: '2026-03-01T10:02:30.000Z' };
    const markRead = vi.fn((_i: CallInput<'markActivityRead'>) => {
      unread = { count: 0, capped: false, seenAt: '2026-03-01T11:00:00.000Z' };
      return unread;
    });
    const list = vi.fn((_i: CallInput<'listActivity'>) => ({ items: [ev(4), ev(3), ev(2, { actor: null, kind: 'alarm.raised', title: 'Alarma alta en fw-1: CPU', link: '/devices/detail/fw-1?tenant=acme' })], nextCursor: 'c1' }));
    const api = fakeApi({ getMe: ME_ACME, getActivityUnread: () => unread, listActivity: list, markActivityRead: markRead });
    renderSignedIn(<Bell />, { api });

    const button = await screen.findByRole('button', { name: 'Notificaciones, 2 sin leer' });
    expect(screen.getByTestId('bell-count').textContent).toBe('2');
    fireEvent.click(button);
    const feed = await screen.findByRole('list', { name: 'Últimas notificaciones' });
    const items = within(feed).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('a')?.getAttribute('href'))).toEqual(['/ticket/update/INC-000004?tenant=acme', '/ticket/update/INC-000003?tenant=acme', '/devices/detail/fw-1?tenant=acme']);
    // Events after the marker are "Nuevo"; the one before is not.
    expect(items.map((li) => li.textContent?.includes('Nuevo'))).toEqual([true, true, false]);
    expect(list).toHaveBeenCalledWith({ query: { tenant: 'acme', limit: 5 } });
    expect(screen.getByRole('link', { name: 'Ver todas' }).getAttribute('href')).toBe('/notifications');

    fireEvent.click(screen.getByRole('button', { name: 'Marcar todo como leído' }));
    await waitFor(() => expect(markRead).toHaveBeenCalledWith({ query: { tenant: 'acme' } }));
    await screen.findByText('Todo marcado como leído.');
    await waitFor(() => expect(screen.queryByTestId('bell-count')).toBeNull());
    expect(screen.getByRole('button', { name: 'Notificaciones' })).toBeTruthy();
  });

  it('"99+" beyond 99; empty and error states', async () => {
    const api = fakeApi({ getMe: ME_ACME, getActivityUnread: { count: 99, capped: true, seenAt: null }, listActivity: { items: [], nextCursor: null } });
    renderSignedIn(<Bell />, { api });
    await screen.findByRole('button', { name: 'Notificaciones, Más de 99 sin leer' });
    expect(screen.getByTestId('bell-count').textContent).toBe('99+');
    fireEvent.click(screen.getByRole('button', { name: /Notificaciones/ }));
    await screen.findByText('No hay registros');
  });

  it('an error of the feed shows "Reintentar"', async () => {
    const api = fakeApi({
      getMe: ME_ACME,
      getActivityUnread: { count: 0, capped: false, seenAt: null },
      listActivity: () => {
        throw new Error('boom');
      },
    });
    renderSignedIn(<Bell />, { api });
    fireEvent.click(await screen.findByRole('button', { name: 'Notificaciones' }));
    await screen.findByRole('alert');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});

describe('feed page', () => {
  const page = () => (
    <Routes>
      <Route path="/notifications" element={<ActivityFeedPage />} />
    </Routes>
  );

  it('lists the events newest first, loads more with the cursor and marks all as read', async () => {
    const list = vi.fn((i: CallInput<'listActivity'>) => (i.query?.cursor === 'c1' ? { items: [ev(1, { actor: null, title: 'INC-000001 ha incumplido el SLA de resolución' })], nextCursor: null } : { items: [ev(3), ev(2)], nextCursor: 'c1' }));
    const markRead = vi.fn(() => ({ count: 0, capped: false, seenAt: '2026-03-01T11:00:00.000Z' }));
    const api = fakeApi({ getMe: ME_ACME, getActivityUnread: { count: 1, capped: false, seenAt: '2026-03-01T10:02:30.000Z' }, listActivity: list, markActivityRead: markRead });
    renderSignedIn(page(), { path: '/notifications', api });
    expect(await screen.findByRole('heading', { name: 'Actividad' })).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('link').map((a) => a.textContent)).toEqual(['INC-000003: estado «Nuevo» → «En curso»', 'INC-000002: estado «Nuevo» → «En curso»']);
    expect(list).toHaveBeenCalledWith({ query: { tenant: 'acme', limit: 25 } });
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    await within(table).findByText('INC-000001 ha incumplido el SLA de resolución');
    expect(within(table).getByText('Sistema')).toBeTruthy();
    expect(list).toHaveBeenCalledWith({ query: { tenant: 'acme', limit: 25, cursor: 'c1' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Marcar todo como leído' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Marcar todo como leído' }));
    await screen.findByText('Todo marcado como leído.');
    expect(markRead).toHaveBeenCalledTimes(1);
  });

  it('empty state', async () => {
    renderSignedIn(page(), { path: '/notifications', api: fakeApi({ getMe: ME_ACME, getActivityUnread: { count: 0, capped: false, seenAt: null }, listActivity: { items: [], nextCursor: null } }) });
    await screen.findByText('Todavía no hay actividad.');
  });
});
