/**
 * `/devices/maintenance` "Mantenimiento" (docs/portal.md#maintenance-windows): the tenant's maintenance windows
 * (`GET /maintenance-windows`: in progress and upcoming, or ended; cursor pages with "Cargar más"), and for the
 * customer's admins and staff (tenant picked in the header) the form to declare or edit one (`POST`/`PUT`) and
 * "Eliminar" after a confirmation (`DELETE`). Viewers and operators read only: the write controls are hidden
 * (the API refuses them anyway, 403 ROLE_REQUIRED). Alarms inside a window are marked and notify nobody.
 * Times are shown in the reader's time zone and stored ISO-8601 UTC. Loading, error and empty states; a 409
 * VERSION_CONFLICT (someone changed the window meanwhile) says so and reloads the list.
 */
import { useState } from 'react';
import { toApiError } from '../../shared/lib/api';
import { callOp, useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import type { MaintenanceWindow } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { useConfirm } from '../../shared/ui/ConfirmDialog';
import { PageHeader } from '../../shared/ui/states';
import { ListFrame } from '../../shared/ui/lists';
import '../../shared/ui/screens.css';
import { MaintenanceForm } from './MaintenanceForm';
import { MaintenanceRow } from './MaintenanceRow';

/** Windows per page. */
export const MAINTENANCE_PAGE_SIZE = 20;

type Notice = { tone: 'ok' | 'error'; text: string } | null;

/** The tenant's maintenance windows (current or past), with the form to plan or edit one for those who may write. */
export function MaintenancePage() {
  const { tenants, activeTenant, me } = useTenant();
  const api = useApi();
  const [dialog, ask] = useConfirm();
  const [show, setShow] = useState<'current' | 'past'>('current');
  const [edited, setEditing] = useState<MaintenanceWindow | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const query = activeTenant ? { tenant: activeTenant } : null;
  // Another tenant picked in the header (staff): the window being edited is not one of its windows.
  const editing = edited && edited.tenantId === activeTenant ? edited : null;
  const list = useApiSWRInfinite('listMaintenanceWindows', query ? { query: { ...query, limit: MAINTENANCE_PAGE_SIZE, ...(show === 'past' ? { status: 'past' as const } : {}) } } : null);
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  // The customer's admins and staff write (route rows: minRole admin); viewers and operators read.
  const canWrite = !!me && (me.isAdmin || me.role === 'admin');
  const now = new Date();

  const closeForm = () => {
    setEditing(null);
    setFormKey((k) => k + 1);
  };
  const save = (body: Parameters<Parameters<typeof MaintenanceForm>[0]['save']>[0]) => {
    setNotice(null);
    return editing
      ? callOp(api, 'updateMaintenanceWindow', { params: { windowId: editing.windowId }, query: query ?? {}, body: { ...body, version: editing.version } })
      : callOp(api, 'createMaintenanceWindow', { query: query ?? {}, body });
  };
  const remove = async (w: MaintenanceWindow) => {
    if (!(await ask({ title: msg('maintenance.confirm.removeTitle', { title: w.title }), body: msg('maintenance.confirm.removeBody'), confirmLabel: msg('actions.delete') }))) return;
    setBusy(true);
    setNotice(null);
    try {
      await callOp(api, 'deleteMaintenanceWindow', { params: { windowId: w.windowId }, query: query ?? {} });
      setNotice({ tone: 'ok', text: msg('maintenance.notices.removed', { title: w.title }) });
      if (editing?.windowId === w.windowId) closeForm();
    } catch (err) {
      const e = toApiError(err);
      setNotice({ tone: 'error', text: e.code === 'VERSION_CONFLICT' ? msg('maintenance.form.conflict') : e.requestId ? `${e.userMessage} (${e.requestId})` : e.userMessage });
    } finally {
      setBusy(false);
      await list.mutate();
    }
  };

  return (
    <section className="maintenance-page">
      <PageHeader title={msg('menu.maintenance')} />
      <p>{msg('maintenance.page.intro', { tenant: tenantName })}</p>
      {dialog}
      {notice && (
        <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      {canWrite ? (
        <MaintenanceForm
          key={`${activeTenant}-${editing?.windowId ?? 'new'}-${editing?.version ?? 0}-${formKey}`}
          editing={editing}
          save={save}
          onSaved={(w) => {
            setNotice({ tone: 'ok', text: msg(editing ? 'maintenance.notices.saved' : 'maintenance.notices.created', { title: w.title }) });
            closeForm();
            void list.mutate();
          }}
          onConflict={() => {
            setNotice({ tone: 'error', text: msg('maintenance.form.conflict') });
            closeForm();
            void list.mutate();
          }}
          onCancel={closeForm}
        />
      ) : (
        <p className="muted small">{msg('maintenance.page.readOnly')}</p>
      )}
      <div className="card">
        <h2>{msg('maintenance.page.list', { tenant: tenantName })}</h2>
        <div className="field">
          <label htmlFor="mw-show">{msg('maintenance.page.show')}</label>{' '}
          <select id="mw-show" value={show} onChange={(e) => setShow(e.target.value as 'current' | 'past')}>
            <option value="current">{msg('maintenance.page.current')}</option>
            <option value="past">{msg('maintenance.page.past')}</option>
          </select>
        </div>
        <ListFrame list={list} empty={msg('maintenance.page.empty')} loadingRows={3}>
          <table className="data-table responsive">
            <caption className="visually-hidden">{msg('maintenance.page.list', { tenant: tenantName })}</caption>
            <thead>
              <tr>
                <th scope="col">{msg('fields.maintenanceWindow.title')}</th>
                <th scope="col">{msg('maintenance.table.scope')}</th>
                <th scope="col">{msg('fields.maintenanceWindow.start')}</th>
                <th scope="col">{msg('fields.maintenanceWindow.end')}</th>
                <th scope="col">{msg('maintenance.table.status')}</th>
                {canWrite && <th scope="col">{msg('fields.common.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {list.items.map((w) => (
                <MaintenanceRow
                  key={`${w.windowId}-${w.version}`}
                  window={w}
                  now={now}
                  canWrite={canWrite}
                  canChangePast={!!me?.isAdmin}
                  busy={busy}
                  onEdit={() => {
                    setNotice(null);
                    setEditing(w);
                    document.getElementById('mw-form-title')?.scrollIntoView?.({ block: 'start' });
                  }}
                  onRemove={() => void remove(w)}
                />
              ))}
            </tbody>
          </table>
        </ListFrame>
      </div>
    </section>
  );
}
