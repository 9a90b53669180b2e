/**
 * `/team` "Usuarios" (docs/portal.md#team): a customer admin's colleagues with role and status (`GET /team`,
 * cursor pages with "Cargar más"), "Invitar a un colega" (`POST /team`: e-mail, name, role; Cognito e-mails the
 * temporary password), role change, disable/enable and remove (`PUT`/`DELETE /team/{username}`), asking first
 * before what takes access away. Errors in words (409 LAST_ADMIN, OWN_ACCOUNT, USER_EXISTS; team-notice.ts),
 * loading, error and empty states. Reached from the menu by customer admins only (menu.ts); the API refuses
 * anyone else (403 ROLE_REQUIRED). Staff keep their own users screens (features/admin).
 */
import { useState } from 'react';
import { callOp, useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { CUSTOMER_ROLE_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { useConfirm } from '../../shared/ui/ConfirmDialog';
import { PageHeader } from '../../shared/ui/states';
import { ListFrame } from '../../shared/ui/lists';
import '../../shared/ui/screens.css';
import { InviteForm } from './InviteForm';
import { MemberRow, type MemberActions } from './MemberRow';
import { attempt, teamErrorText, type Notice, type TeamMember, type TeamRole } from './team-notice';

/** `/team`: the tenant's colleagues with their role and status, the invitation form, and each member's actions. */
export function TeamPage() {
  const { tenants, activeTenant, me } = useTenant();
  const api = useApi();
  const [dialog, ask] = useConfirm();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const query = activeTenant ? { tenant: activeTenant } : null;
  const list = useApiSWRInfinite('listTeam', query ? { query } : null);
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  const whoOf = (m: TeamMember) => m.name ?? m.email ?? m.username;

  const run = async (key: string, action: () => Promise<unknown>, ok: string) => {
    setBusy(key);
    setNotice(await attempt(action, ok));
    setBusy(null);
    await list.mutate();
  };
  const actions: MemberActions = {
    changeRole: (m, role) =>
      void (async () => {
        const who = whoOf(m);
        const roleName = CUSTOMER_ROLE_LABELS[role];
        const lower = ['viewer', 'operator', 'admin'].indexOf(role) < ['viewer', 'operator', 'admin'].indexOf(m.role);
        if (lower && !(await ask({ title: msg('team.confirm.demoteTitle', { who, role: roleName }), body: msg('team.confirm.demoteBody', { who }), confirmLabel: msg('team.table.changeRole') }))) return;
        await run(m.username, () => callOp(api, 'updateTeamMember', { params: { username: m.username }, query: query ?? {}, body: { role } }), msg('team.notices.roleChanged', { who, role: roleName }));
      })(),
    setEnabled: (m, enabled) =>
      void (async () => {
        const who = whoOf(m);
        if (!enabled && !(await ask({ title: msg('team.confirm.disableTitle', { who }), body: msg('team.confirm.disableBody', { who }), confirmLabel: msg('actions.disable') }))) return;
        await run(m.username, () => callOp(api, 'updateTeamMember', { params: { username: m.username }, query: query ?? {}, body: { enabled } }), msg(enabled ? 'team.notices.enabled' : 'team.notices.disabled', { who }));
      })(),
    remove: (m) =>
      void (async () => {
        const who = whoOf(m);
        if (!(await ask({ title: msg('team.confirm.removeTitle', { who }), body: msg('team.confirm.removeBody', { who }), confirmLabel: msg('team.table.remove') }))) return;
        await run(m.username, () => callOp(api, 'removeTeamMember', { params: { username: m.username }, query: query ?? {} }), msg('team.notices.removed', { who }));
      })(),
  };
  const invite = async (body: { email: string; name: string; role: TeamRole }): Promise<string | null> => {
    setNotice(null);
    try {
      await callOp(api, 'inviteTeamMember', { query: query ?? {}, body });
    } catch (err) {
      return teamErrorText(err);
    }
    setNotice({ tone: 'ok', text: msg('team.invite.sent', { email: body.email }) });
    await list.mutate();
    return null;
  };

  return (
    <section className="team-page">
      <PageHeader title={msg('menu.team')} />
      <p>{msg('team.page.intro', { tenant: tenantName })}</p>
      {dialog}
      {notice && (
        <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      <InviteForm invite={invite} />
      <div className="card">
        <h2>{msg('team.page.colleagues', { tenant: tenantName })}</h2>
        <ListFrame list={list} empty={msg('team.page.empty')} loadingRows={3}>
          <table className="data-table responsive">
            <caption className="visually-hidden">{msg('team.page.colleagues', { tenant: tenantName })}</caption>
            <thead>
              <tr>
                <th scope="col">{msg('fields.user.user')}</th>
                <th scope="col">{msg('fields.user.role')}</th>
                <th scope="col">{msg('fields.user.status')}</th>
                <th scope="col">{msg('fields.common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((m) => (
                <MemberRow key={`${m.username}-${m.role}`} member={m} self={m.email !== undefined && m.email === me?.email} busy={busy !== null} actions={actions} />
              ))}
            </tbody>
          </table>
        </ListFrame>
      </div>
    </section>
  );
}
