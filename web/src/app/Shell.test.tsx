import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderSignedIn } from '../shared/lib/test-utils';
import { AppRoutes } from './AppRoutes';

/** The sidebar menu of docs/portal.md#shell, row by row, as a non-admin sees it ("Analítica" is tested below). */
const DOCUMENTED_MENU = [
  ['Dashboard', 'General', '/dashboard/general'],
  ['Reportes', 'General', '/reports/general'],
  ['Incidentes', 'Ver', '/incidents/all'],
  ['Incidentes', 'Agregar', '/incidents/new'],
  ['Dispositivos', 'Estado', '/devices/status'],
  ['Dispositivos', 'Disponibilidad', '/devices/availability'],
  ['Dispositivos', 'Alarmas', '/devices/alarms'],
  ['Dispositivos', 'Mantenimiento', '/devices/maintenance'],
  ['Office 365', 'Alarmas', '/office365/alarms'],
  ['Office 365', 'Eventos', '/office365/events'],
  ['Otros', 'Recomendaciones', '/recommendations'],
  ['Otros', 'Contactos de escalado', '/escalation-contacts'],
  ['Otros', 'Registro de auditoría', '/audit'],
] as const;

describe('shell', () => {
  it('renders the documented sidebar: groups in order, each entry linking to its route', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon' });
    const nav = await screen.findByRole('navigation', { name: 'Menú principal' });
    const groups = within(nav).getAllByRole('button').map((b) => b.textContent);
    expect(groups).toEqual(['Dashboard', 'Reportes', 'Incidentes', 'Dispositivos', 'Office 365', 'Otros']);
    for (const [group, label, to] of DOCUMENTED_MENU) {
      const toggle = within(nav).getByRole('button', { name: group });
      if (toggle.getAttribute('aria-expanded') !== 'true') fireEvent.click(toggle);
      const submenu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
      expect(submenu.hidden).toBe(false);
      expect(within(submenu).getByRole('link', { name: label }).getAttribute('href')).toBe(to);
    }
    expect(within(nav).getAllByRole('link', { hidden: true })).toHaveLength(DOCUMENTED_MENU.length);
  });

  it('adds "Analítica" → /analytics for admin only', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon', user: { email: 'admin@vigia.test', groups: ['admin'] } });
    const nav = await screen.findByRole('navigation', { name: 'Menú principal' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Analítica' }));
    expect(within(nav).getByRole('link', { name: 'General', hidden: false }).getAttribute('href')).toBe('/analytics');
  });

  it('adds "SOC" → Cola SOC and "Administración" → Clientes, Personal SOC for staff only', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon', user: { email: 'admin@vigia.test', groups: ['admin'] } });
    const nav = await screen.findByRole('navigation', { name: 'Menú principal' });
    fireEvent.click(within(nav).getByRole('button', { name: 'SOC' }));
    expect(within(nav).getByRole('link', { name: 'Cola SOC' }).getAttribute('href')).toBe('/soc/queue');
    fireEvent.click(within(nav).getByRole('button', { name: 'Administración' }));
    expect(within(nav).getByRole('link', { name: 'Clientes' }).getAttribute('href')).toBe('/admin/tenants');
    expect(within(nav).getByRole('link', { name: 'Personal SOC' }).getAttribute('href')).toBe('/admin/staff');
  });

  it('sends a customer who opens a staff screen to the error page', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/soc/queue' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeTruthy();
  });

  it('opens only the current route group and resets submenus on navigation', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/devices/alarms' });
    const nav = await screen.findByRole('navigation', { name: 'Menú principal' });
    const devices = within(nav).getByRole('button', { name: 'Dispositivos' });
    const others = within(nav).getByRole('button', { name: 'Otros' });
    expect(devices.getAttribute('aria-expanded')).toBe('true');
    expect(others.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(others);
    fireEvent.click(within(nav).getByRole('link', { name: 'Recomendaciones' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Recomendaciones' })).toBeTruthy();
    expect(others.getAttribute('aria-expanded')).toBe('true');
    expect(devices.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows brand, profile e-mail with account links, and the copyright footer', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon' });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Vigía CLIENTE' }).getAttribute('href')).toBe('/');
    fireEvent.click(within(banner).getByRole('button', { name: 'ana@acme.test' }));
    const account = within(banner).getByRole('list', { name: 'Cuenta' });
    expect(within(account).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Perfil', '/profile'],
      ['Calendario', '/calendar'],
      ['Configuración', '/settings'],
      ['Cambiar contraseña', '/page/passwordchange'],
      ['Cerrar sesión', '/page/logout'],
    ]);
    expect(screen.getByRole('contentinfo').textContent).toBe(`© ${new Date().getFullYear()} Vigía Security Group`);
    // one tenant, not admin → no tenant picker
    expect(screen.queryByLabelText('Cliente')).toBeNull();
  });

  it('the header search toggle opens the field, focuses it, and Escape folds it back (the phone layout)', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon' });
    const banner = await screen.findByRole('banner');
    const toggle = within(banner).getByRole('button', { name: 'Abrir búsqueda' });
    const form = within(banner).getByRole('search');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBe(form.id);
    expect(form.className).toBe('header-search');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(form.className).toBe('header-search open');
    const input = within(form).getByRole('searchbox', { name: 'Buscar' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('shows "User" when the ID token has no e-mail, and a tenant picker for admins', async () => {
    const { fakeApi } = await import('../shared/lib/test-utils');
    const api = fakeApi({
      getMe: { sub: 'a', email: '', groups: ['admin'], isAdmin: true, tenants: [{ id: 'acme', name: 'ACME' }, { id: 'globex', name: 'Globex' }] },
    });
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon', user: { email: '', groups: ['admin'] }, api });
    expect(await screen.findByRole('button', { name: 'User' })).toBeTruthy();
    const picker = (await screen.findByLabelText('Cliente')) as HTMLSelectElement;
    expect(picker.value).toBe('acme');
    fireEvent.change(picker, { target: { value: 'globex' } });
    expect(localStorage.getItem('vigia.activeTenant')).toBe('globex');
  });

  it('mobile toggle opens the sidebar with a backdrop that closes it', async () => {
    renderSignedIn(<AppRoutes brandName="Vigía" />, { path: '/page/coming-soon' });
    const open = await screen.findByRole('button', { name: 'Abrir menú' });
    fireEvent.click(open);
    expect(screen.getByRole('navigation', { name: 'Menú principal' }).className).toContain('is-open');
    fireEvent.click(screen.getByTestId('sidebar-backdrop'));
    expect(screen.getByRole('navigation', { name: 'Menú principal' }).className).not.toContain('is-open');
  });
});
