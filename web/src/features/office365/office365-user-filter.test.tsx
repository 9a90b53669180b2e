import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { CallInput } from '../../shared/lib/api';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { alarmsQuery, eventsQuery } from './api';
import { Office365AlarmsPage, Office365EventsPage } from './Office365Pages';

/** Shows the address's query string, so a test can read the filters the page put in the URL. */
function Search() {
  return <output aria-label="query">{useLocation().search}</output>;
}

describe('Office 365 user filter', () => {
  it('reads the exact user from the address (trimmed), for alerts and events', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(alarmsQuery(new URLSearchParams('range=all&user=%20laura@acme.example%20'), now)).toEqual({ from: undefined, user: 'laura@acme.example' });
    expect(eventsQuery(new URLSearchParams('range=all&user='), now)).toEqual({ from: undefined });
  });

  it('events: Enter in "Usuario" asks the API for that user only, and clearing it asks for everyone again', async () => {
    const list = vi.fn((_input: CallInput<'listOffice365Events'>) => ({ items: [], nextCursor: null }));
    renderSignedIn(
      <Routes>
        <Route
          path="/office365/events"
          element={
            <>
              <Office365EventsPage />
              <Search />
            </>
          }
        />
      </Routes>,
      { path: '/office365/events?range=all', api: fakeApi({ getMe: ME_ACME, listOffice365Events: list }) },
    );
    const field = await screen.findByRole('searchbox', { name: 'Usuario' });
    fireEvent.change(field, { target: { value: ' laura@acme.example ' } });
    expect(list.mock.calls.some(([input]) => input.query?.user)).toBe(false);
    fireEvent.keyDown(field, { key: 'Enter' });
    await vi.waitFor(() => expect(list.mock.calls.at(-1)?.[0].query).toMatchObject({ user: 'laura@acme.example' }));
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.blur(field);
    // Back to the first query (answered from the cache): the address no longer names a user.
    await vi.waitFor(() => expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?range=all'));
  });

  it('alerts: the "Usuario afectado" filter is sent as the API user filter', async () => {
    const list = vi.fn((_input: CallInput<'listOffice365Alarms'>) => ({ items: [], nextCursor: null }));
    renderSignedIn(
      <Routes>
        <Route path="/office365/alarms" element={<Office365AlarmsPage />} />
      </Routes>,
      { path: '/office365/alarms?range=all&user=pedro@acme.example', api: fakeApi({ getMe: ME_ACME, listOffice365Alarms: list }) },
    );
    const field = (await screen.findByRole('searchbox', { name: 'Usuario afectado' })) as HTMLInputElement;
    expect(field.value).toBe('pedro@acme.example');
    await vi.waitFor(() => expect(list.mock.calls.at(-1)?.[0].query).toMatchObject({ user: 'pedro@acme.example' }));
  });
});
