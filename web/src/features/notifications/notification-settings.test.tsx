/** The notification preferences and webhooks screens (docs/notifications.md#portal-screens). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { ApiError, type CallInput } from '../../shared/lib/api';
import { ACTIVITY_KINDS, type Me, type NotificationPreferences, type WebhookDelivery, type WebhookView } from '../../shared/lib/contract';
import { NotificationPreferencesPage } from './NotificationPreferencesPage';
import { WebhooksPage } from './WebhooksPage';

const ME_STAFF: Me = { sub: 's-1', email: 'soc@vigia.test', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'ACME' }, { id: 'globex', name: 'Globex' }] };
const DEFAULTS: NotificationPreferences = { email: true, minSeverity: 'high', kinds: null, digest: false };

const routes = () => (
  <Routes>
    <Route path="/notifications/preferences" element={<NotificationPreferencesPage />} />
    <Route path="/notifications/webhooks" element={<WebhooksPage />} />
  </Routes>
);

const webhook = (over: Partial<WebhookView> = {}): WebhookView => ({
  id: 'wh-aaaaaaaaaaaaaaaaaaaa',
  name: 'Canal SOC',
  kind: 'teams',
  urlPreview: 'https://acme.webhook.office.com/…f00d',
  minSeverity: 'high',
  kinds: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  createdBy: 'ana@acme.test',
  signed: false,
  ...over,
});

const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  deliveryId: '01J00000000000000000000001:webhook:wh-aaaaaaaaaaaaaaaaaaaa',
  eventId: '01J00000000000000000000001',
  kind: 'incident.status_changed',
  title: 'INC-000004: estado «Nuevo» → «En curso»',
  state: 'sent',
  attempts: 1,
  lastStatus: 200,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-03-01T10:05:00.000Z',
  updatedAt: '2026-03-01T10:05:01.000Z',
  sentAt: '2026-03-01T10:05:01.000Z',
  ...over,
});

afterEach(() => vi.restoreAllMocks());

describe('notification preferences', { timeout: 20_000 }, () => {
  it('shows the saved values, saves the changes with PUT and says so', async () => {
    const put = vi.fn((i: CallInput<'putNotificationPreferences'>) => i.body);
    const api = fakeApi({ getMe: ME_ACME, getNotificationPreferences: { ...DEFAULTS, kinds: ['incident.created', 'sla.breached'] }, putNotificationPreferences: put });
    renderSignedIn(routes(), { path: '/notifications/preferences', api });
    expect(await screen.findByRole('heading', { level: 1, name: 'Preferencias de aviso' })).toBeTruthy();
    const email = await screen.findByRole('checkbox', { name: 'Recibir avisos por correo electrónico' });
    expect((email as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Severidad mínima') as HTMLSelectElement).value).toBe('high');
    // The SOC-reply rule (docs/notifications.md#soc-replies) is explained next to the minimum severity.
    const hintId = screen.getByLabelText('Severidad mínima').getAttribute('aria-describedby')!.split(' ')[0]!;
    expect(document.getElementById(hintId)!.textContent).toMatch(/respuestas del SOC en sus incidentes le llegan siempre por correo, salvo que desmarque «Nuevo comentario en un incidente»/);
    const kinds = screen.getByRole('group', { name: 'Tipos de aviso' });
    // Every kind of the contract, labelled in Spanish; only the saved ones ticked.
    const boxes = within(kinds).getAllByRole('checkbox').slice(1) as HTMLInputElement[];
    expect(boxes).toHaveLength(ACTIVITY_KINDS.length);
    expect(boxes.filter((b) => b.checked).map((b) => b.value)).toEqual(['incident.created', 'sla.breached']);
    expect(within(kinds).getByRole('checkbox', { name: 'SLA incumplido' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Severidad mínima'), { target: { value: 'medium' } });
    fireEvent.click(within(kinds).getByRole('checkbox', { name: 'Incidente resuelto' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Resumen diario' }));
    // The monthly PDF report by e-mail: off by default, ticked here.
    const monthly = screen.getByRole('checkbox', { name: 'Informe mensual por correo' }) as HTMLInputElement;
    expect(monthly.checked).toBe(false);
    fireEvent.click(monthly);
    // Never saved a language: the portal's (Spanish here) is offered and sent; the reader picks English.
    const language = screen.getByLabelText('Idioma de los correos') as HTMLSelectElement;
    expect(language.value).toBe('es');
    fireEvent.change(language, { target: { value: 'en' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    await screen.findByText('Preferencias guardadas.');
    expect(put).toHaveBeenCalledWith({
      query: { tenant: 'acme' },
      body: { email: true, minSeverity: 'medium', kinds: ['incident.created', 'incident.resolved', 'sla.breached'], digest: true, monthlyReport: true, language: 'en' },
    });

    // "Todos los tipos" ticks every kind, which is sent as null (also kinds added later).
    fireEvent.click(within(kinds).getByRole('checkbox', { name: 'Todos los tipos' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    await waitFor(() => expect(put).toHaveBeenLastCalledWith({ query: { tenant: 'acme' }, body: { email: true, minSeverity: 'medium', kinds: null, digest: true, monthlyReport: true, language: 'en' } }));
  });

  it('shows the API\u2019s field errors under their fields, and refuses no kind at all', async () => {
    const put = vi.fn(() => {
      throw new ApiError({ kind: 'client', status: 400, code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'body.minSeverity', message: 'Severidad no válida' }] });
    });
    const api = fakeApi({ getMe: ME_ACME, getNotificationPreferences: DEFAULTS, putNotificationPreferences: put });
    renderSignedIn(routes(), { path: '/notifications/preferences', api });
    const select = await screen.findByLabelText('Severidad mínima');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    await screen.findByText('Severidad no válida');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.getAttribute('aria-describedby')).toContain('prefs-severity-error');
    expect(screen.queryByText('Preferencias guardadas.')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Todos los tipos' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    await screen.findByText('Elige al menos un tipo de aviso.');
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('loading error offers "Reintentar"; staff see a notice instead of the form', async () => {
    const api = fakeApi({
      getMe: ME_ACME,
      getNotificationPreferences: () => {
        throw new ApiError({ kind: 'server', status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' });
      },
    });
    const { unmount } = renderSignedIn(routes(), { path: '/notifications/preferences', api });
    await screen.findByRole('button', { name: 'Reintentar' });
    unmount();

    renderSignedIn(routes(), { path: '/notifications/preferences', api: fakeApi({ getMe: ME_STAFF, getNotificationPreferences: DEFAULTS }), user: { email: 'soc@vigia.test', groups: ['admin'] } });
    await screen.findByText(/el personal del SOC no recibe correo/);
    expect(screen.queryByRole('button', { name: 'Guardar preferencias' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ir a los webhooks del cliente' }).getAttribute('href')).toBe('/notifications/webhooks');
  });
});

describe('webhooks', { timeout: 20_000 }, () => {
  it('lists the webhooks with format, masked URL and what each receives; empty state', async () => {
    const api = fakeApi({
      getMe: ME_ACME,
      listWebhooks: { items: [webhook(), webhook({ id: 'wh-bbbbbbbbbbbbbbbbbbbb', name: 'Receptor propio', kind: 'json', signed: true, urlPreview: 'https://hooks.acme.test/…/abc', minSeverity: 'medium', kinds: ['incident.created', 'sla.breached'] })] },
    });
    renderSignedIn(routes(), { path: '/notifications/webhooks', api });
    const items = await screen.findAllByRole('article');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('heading', { name: 'Canal SOC' })).toBeTruthy();
    expect(items[0]!.textContent).toContain('Microsoft Teams');
    expect(items[0]!.textContent).toContain('https://acme.webhook.office.com/…f00d');
    expect(items[0]!.textContent).toContain('Alta o superior; todos los tipos');
    expect(items[1]!.textContent).toContain('JSON firmado · Firmado (X-Vigia-Signature)');
    expect(items[1]!.textContent).toContain('Media o superior; 2 tipos: Incidente creado, SLA incumplido');
  });

  it('empty and error states', async () => {
    const { unmount } = renderSignedIn(routes(), { path: '/notifications/webhooks', api: fakeApi({ getMe: ME_ACME, listWebhooks: { items: [] } }) });
    await screen.findByText('Este cliente todavía no tiene webhooks.');
    unmount();
    renderSignedIn(routes(), {
      path: '/notifications/webhooks',
      api: fakeApi({
        getMe: ME_ACME,
        listWebhooks: () => {
          throw new ApiError({ kind: 'server', status: 500, code: 'INTERNAL', message: 'x' });
        },
      }),
    });
    await screen.findByRole('button', { name: 'Reintentar' });
  });

  it('adds a JSON webhook and shows its secret once, with "Copiar"; field errors of the API under the URL', async () => {
    let items: WebhookView[] = [];
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const create = vi.fn((i: CallInput<'createWebhook'>) => {
      if (i.body.url.startsWith('http://10.')) throw new ApiError({ kind: 'client', status: 400, code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: 'body.url', message: 'La dirección no es pública' }] });
      const w = webhook({ id: 'wh-cccccccccccccccccccc', name: i.body.name, kind: i.body.kind, signed: true, urlPreview: 'https://hooks.acme.test/…/in' });
      items = [w];
      return { webhook: w, secret: 'ab'.repeat(32) };
    });
    const api = fakeApi({ getMe: ME_ACME, listWebhooks: () => ({ items }), createWebhook: create });
    renderSignedIn(routes(), { path: '/notifications/webhooks', api });
    await screen.findByText('Este cliente todavía no tiene webhooks.');
    const form = screen.getByRole('form', { name: 'Añadir un webhook' });

    fireEvent.click(within(form).getByRole('button', { name: 'Añadir webhook' }));
    expect(await within(form).findByText('Escribe un nombre.')).toBeTruthy();
    expect(within(form).getByText('Escribe la dirección del webhook.')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();

    fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: 'Receptor propio' } });
    fireEvent.change(within(form).getByLabelText('Formato'), { target: { value: 'json' } });
    fireEvent.change(within(form).getByLabelText('Dirección (URL)'), { target: { value: 'http://10.0.0.1/in' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Añadir webhook' }));
    expect(await within(form).findByText('La dirección no es pública')).toBeTruthy();
    expect(within(form).getByLabelText('Dirección (URL)').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(within(form).getByLabelText('Dirección (URL)'), { target: { value: 'https://hooks.acme.test/in' } });
    fireEvent.change(within(form).getByLabelText('Severidad mínima'), { target: { value: 'critical' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Añadir webhook' }));
    const secret = await screen.findByTestId('webhook-secret');
    expect(secret.textContent).toBe('ab'.repeat(32));
    expect(screen.getByText(/no se volverá a mostrar/)).toBeTruthy();
    // The focus moves in the notice's effect, which may run after the secret is in the DOM.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Secreto de firma'));
    expect(create).toHaveBeenLastCalledWith({ query: { tenant: 'acme' }, body: { name: 'Receptor propio', kind: 'json', url: 'https://hooks.acme.test/in', minSeverity: 'critical', kinds: null } });
    await screen.findByText('Webhook «Receptor propio» añadido.');
    await screen.findByRole('heading', { name: 'Receptor propio' });

    fireEvent.click(screen.getByRole('button', { name: 'Copiar' }));
    await screen.findByRole('button', { name: 'Copiado' });
    expect(writeText).toHaveBeenCalledWith('ab'.repeat(32));
    fireEvent.click(screen.getByRole('button', { name: 'Ya lo he guardado' }));
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('"Enviar prueba" shows the receiver\u2019s answer; deliveries list; delete after confirmation', async () => {
    let items = [webhook()];
    let answer = { ok: true, status: 200, error: null as string | null };
    const test = vi.fn(() => answer);
    const del = vi.fn((i: CallInput<'deleteWebhook'>) => {
      const w = items.find((x) => x.id === i.params.id)!;
      items = [];
      return w;
    });
    const deliveries = vi.fn(() => ({ items: [delivery(), delivery({ deliveryId: 'd2', state: 'failed', attempts: 2, lastStatus: 502, lastError: 'HTTP 502', nextAttemptAt: '2026-03-01T10:07:00.000Z', sentAt: null }), delivery({ deliveryId: 'd3', state: 'dead', attempts: 5, lastStatus: null, lastError: 'WEBHOOK_UNREACHABLE', nextAttemptAt: null, sentAt: null })] }));
    const api = fakeApi({ getMe: ME_ACME, listWebhooks: () => ({ items }), testWebhook: test, deleteWebhook: del, listWebhookDeliveries: deliveries });
    renderSignedIn(routes(), { path: '/notifications/webhooks', api });
    const item = await screen.findByRole('article');

    fireEvent.click(within(item).getByRole('button', { name: 'Enviar prueba' }));
    await within(item).findByText('Prueba enviada a «Canal SOC»: el receptor respondió HTTP 200.');
    expect(test).toHaveBeenCalledWith({ params: { id: 'wh-aaaaaaaaaaaaaaaaaaaa' }, query: { tenant: 'acme' } });
    answer = { ok: false, status: 403, error: null };
    fireEvent.click(within(item).getByRole('button', { name: 'Enviar prueba' }));
    await within(item).findByText('La prueba a «Canal SOC» falló: el receptor respondió HTTP 403');
    answer = { ok: false, status: null as unknown as number, error: 'WEBHOOK_UNREACHABLE' };
    fireEvent.click(within(item).getByRole('button', { name: 'Enviar prueba' }));
    await within(item).findByText('La prueba a «Canal SOC» falló: no se pudo conectar con el receptor');

    expect(deliveries).not.toHaveBeenCalled();
    const toggle = within(item).getByRole('button', { name: 'Ver últimas entregas' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const table = await within(item).findByRole('table', { name: 'Últimas entregas a «Canal SOC», la más reciente primero' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('Cambio de estado de un incidente');
    expect(rows[0]!.textContent).toContain('Entregado');
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent).slice(3)).toEqual(['200', '1']);
    expect(rows[1]!.textContent).toContain('Fallido, se reintentará');
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent).slice(3)).toEqual(['502', '2']);
    expect(rows[2]!.textContent).toContain('no se pudo conectar con el receptor');
    expect(rows[2]!.textContent).not.toContain('WEBHOOK_UNREACHABLE');

    fireEvent.click(within(item).getByRole('button', { name: 'Eliminar' }));
    const confirm = within(item).getByRole('group', { name: /¿Eliminar el webhook «Canal SOC»\?/ });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(del).not.toHaveBeenCalled();
    fireEvent.click(within(item).getByRole('button', { name: 'Eliminar' }));
    fireEvent.click(within(item).getByRole('button', { name: 'Sí, eliminar' }));
    await screen.findByText('Webhook «Canal SOC» eliminado.');
    expect(del).toHaveBeenCalledWith({ params: { id: 'wh-aaaaaaaaaaaaaaaaaaaa' }, query: { tenant: 'acme' } });
    await screen.findByText('Este cliente todavía no tiene webhooks.');
  });

  it('staff act on the tenant picked in the header', async () => {
    localStorage.setItem('vigia.activeTenant', 'globex');
    const list = vi.fn((_i: CallInput<'listWebhooks'>) => ({ items: [] }));
    renderSignedIn(routes(), { path: '/notifications/webhooks', api: fakeApi({ getMe: ME_STAFF, listWebhooks: list }), user: { email: 'soc@vigia.test', groups: ['admin'] } });
    await screen.findByText('Este cliente todavía no tiene webhooks.');
    expect(list).toHaveBeenCalledWith({ query: { tenant: 'globex' } });
    expect(screen.getByText(/Avisos del cliente «Globex»/)).toBeTruthy();
    localStorage.removeItem('vigia.activeTenant');
  });
});
