import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { aDevice, anIncident, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Device, DeviceAlarm, Incident } from '../../shared/lib/contract';
import type { CallInput } from '../../shared/lib/api';
import { SearchResultsPage, SEARCH_PAGE_SIZE } from './SearchResultsPage';

const incident = (n: number): Incident =>
  anIncident({
    id: `INC-${String(n).padStart(6, '0')}`,
    title: `Phishing número ${n}`,
    description: 'Correo sospechoso.',
    status: 'closed',
    category: 'seguridad',
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
    slaDueAt: new Date(Date.UTC(2025, 0, 2) + n * 3_600_000).toISOString(),
  });

const DEVICE: Device = aDevice({ name: 'Phishing-Gateway' });

describe('search results page', () => {
  it('asks the API for one page of each list and follows the incident cursor with "Cargar más"', async () => {
    const incidentCalls: CallInput<'listIncidents'>[] = [];
    const deviceCalls: CallInput<'listDevices'>[] = [];
    const api = fakeApi({
      getMe: ME_ACME,
      listIncidents: (input: CallInput<'listIncidents'>) => {
        incidentCalls.push(input);
        // Page 1: 20 items and a cursor; page 2 (after the cursor): the oldest match, no cursor.
        return input.query?.cursor === 'c1'
          ? { items: [incident(1)], nextCursor: null }
          : { items: Array.from({ length: SEARCH_PAGE_SIZE }, (_, k) => incident(100 - k)), nextCursor: 'c1' };
      },
      listDevices: (input: CallInput<'listDevices'>) => {
        deviceCalls.push(input);
        return { items: [DEVICE], nextCursor: null };
      },
      searchComments: { items: [], nextCursor: null },
    });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=phishing', api },
    );
    expect(await screen.findByText(/INC-000100/)).toBeTruthy();
    expect(screen.queryByText(/INC-000001 ·/)).toBeNull();
    // The devices come from the name-prefix index, one page, not the whole device list filtered here.
    expect(await screen.findByText(/Phishing-Gateway/)).toBeTruthy();
    // (The tenant of the query settles once `GET /me` answers: the calls before it have no `tenant`.)
    expect(deviceCalls.at(-1)).toEqual({ query: { tenant: 'acme', prefix: 'phishing', limit: SEARCH_PAGE_SIZE } });
    expect(deviceCalls.every((c) => c.query?.cursor === undefined && c.query?.limit === SEARCH_PAGE_SIZE)).toBe(true);
    expect(incidentCalls.at(-1)).toEqual({ query: { tenant: 'acme', q: 'phishing', limit: SEARCH_PAGE_SIZE } });
    expect(incidentCalls.every((c) => c.query?.cursor === undefined)).toBe(true);

    // Only the incident list has a next page.
    const more = screen.getAllByRole('button', { name: 'Cargar más' });
    expect(more).toHaveLength(1);
    fireEvent.click(more[0]!);
    expect(await screen.findByText(/INC-000001 ·/)).toBeTruthy();
    expect(incidentCalls.at(-1)).toEqual({ query: { tenant: 'acme', q: 'phishing', limit: SEARCH_PAGE_SIZE, cursor: 'c1' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull());
  });

  it('shows a hint and calls nothing for a text shorter than 2 characters', async () => {
    const api = fakeApi({ getMe: ME_ACME });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=a', api },
    );
    expect(await screen.findByText('Escribe al menos 2 caracteres en el buscador de la cabecera.')).toBeTruthy();
    expect(api.call).not.toHaveBeenCalledWith('listIncidents', expect.anything());
  });

  it('shows the comments having the words, linked to their incident, and the devices of an IP prefix; empty sections say so', async () => {
    const commentCalls: CallInput<'searchComments'>[] = [];
    const ipCalls: CallInput<'listDevices'>[] = [];
    const api = fakeApi({
      getMe: ME_ACME,
      listIncidents: { items: [], nextCursor: null },
      listDevices: (input: CallInput<'listDevices'>) => {
        if (input.query?.ip) ipCalls.push(input);
        return input.query?.ip ? { items: [aDevice({ id: 'dev-fw', name: 'FW-Central', ipAddress: '10.0.3.7' })], nextCursor: null } : { items: [], nextCursor: null };
      },
      searchComments: (input: CallInput<'searchComments'>) => {
        commentCalls.push(input);
        return { items: [{ incidentId: 'INC-000042', id: 'c-1', author: 'ana@acme.example', body: 'Reiniciado el router 10.0.3.7 de la sucursal', createdAt: '2026-01-05T10:00:00.000Z' }], nextCursor: null };
      },
    });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=10.0.3.', api },
    );
    const link = await screen.findByRole('link', { name: /INC-000042 · Reiniciado el router/ });
    expect(link.getAttribute('href')).toBe('/ticket/update/INC-000042?tenant=acme');
    expect(await screen.findByRole('link', { name: /10\.0\.3\.7 · FW-Central/ })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Comentarios' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Dispositivos por IP' })).toBeTruthy();
    expect(screen.getByText('Ningún incidente coincide.')).toBeTruthy();
    expect(commentCalls.at(-1)).toEqual({ query: { tenant: 'acme', q: '10.0.3.', limit: SEARCH_PAGE_SIZE } });
    expect(ipCalls.at(-1)).toEqual({ query: { tenant: 'acme', ip: '10.0.3.', limit: SEARCH_PAGE_SIZE } });
  });

  it('does not ask for devices by IP for a text that is not an address', async () => {
    const api = fakeApi({ getMe: ME_ACME, listIncidents: { items: [], nextCursor: null }, listDevices: { items: [], nextCursor: null }, searchComments: { items: [], nextCursor: null } });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=router', api },
    );
    expect(await screen.findByText('Ningún comentario coincide.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Dispositivos por IP' })).toBeNull();
    expect(api.call).not.toHaveBeenCalledWith('listDevices', expect.objectContaining({ query: expect.objectContaining({ ip: expect.anything() }) }));
  });

  it('shows the alarms having the words, linked to their device, and the Office 365 users by e-mail prefix, linked to their alerts', async () => {
    const alarmCalls: CallInput<'searchAlarms'>[] = [];
    const userCalls: CallInput<'searchOffice365Users'>[] = [];
    const alarm: DeviceAlarm = {
      id: 'a-1', tenantId: 'acme', deviceId: 'fw-cba', deviceName: 'Cortafuegos Córdoba', title: 'Temperatura alta en Córdoba', severity: 'critical', state: 'active',
      raisedAt: '2026-06-01T10:00:00.000Z', acknowledgedAt: null, acknowledgedBy: null, clearedAt: null,
    };
    const api = fakeApi({
      getMe: ME_ACME,
      listIncidents: { items: [], nextCursor: null },
      listDevices: { items: [], nextCursor: null },
      searchComments: { items: [], nextCursor: null },
      searchAlarms: (input: CallInput<'searchAlarms'>) => {
        alarmCalls.push(input);
        return { items: [alarm], nextCursor: null };
      },
      searchOffice365Users: (input: CallInput<'searchOffice365Users'>) => {
        userCalls.push(input);
        return { items: [{ upn: 'maria.lopez@acme.example', lastAlertAt: '2026-05-03T10:00:00.000Z', lastAlertId: 'o-2' }], nextCursor: null };
      },
    });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=cordoba', api },
    );
    const alarmLink = await screen.findByRole('link', { name: 'Temperatura alta en Córdoba · Cortafuegos Córdoba' });
    expect(alarmLink.getAttribute('href')).toBe('/devices/detail/fw-cba?tenant=acme');
    const userLink = await screen.findByRole('link', { name: 'maria.lopez@acme.example' });
    expect(userLink.getAttribute('href')).toBe('/office365/alarms?user=maria.lopez%40acme.example');
    expect(screen.getByRole('heading', { name: 'Alarmas' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Usuarios de Office 365' })).toBeTruthy();
    expect(screen.getByText(/Última alerta:/)).toBeTruthy();
    expect(alarmCalls.at(-1)).toEqual({ query: { tenant: 'acme', q: 'cordoba', limit: SEARCH_PAGE_SIZE } });
    expect(userCalls.at(-1)).toEqual({ query: { tenant: 'acme', q: 'cordoba', limit: SEARCH_PAGE_SIZE } });
  });

  it('says so when no alarm and no Office 365 user matches', async () => {
    const api = fakeApi({
      getMe: ME_ACME, listIncidents: { items: [], nextCursor: null }, listDevices: { items: [], nextCursor: null }, searchComments: { items: [], nextCursor: null },
      searchAlarms: { items: [], nextCursor: null }, searchOffice365Users: { items: [], nextCursor: null },
    });
    renderSignedIn(
      <Routes>
        <Route path="/page/search-results" element={<SearchResultsPage />} />
      </Routes>,
      { path: '/page/search-results?q=nada', api },
    );
    expect(await screen.findByText('Ninguna alarma coincide.')).toBeTruthy();
    expect(await screen.findByText('Ningún usuario de Office 365 coincide.')).toBeTruthy();
  });
});
