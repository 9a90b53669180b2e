/** One colleague's row of the team table: who, role (a select applied with "Cambiar rol"), status, and disable/enable and remove. */
import { useState } from 'react';
import { CUSTOMER_ROLE_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { memberStatusLabel, TEAM_ROLES, type TeamMember, type TeamRole } from './team-notice';

export interface MemberActions {
  changeRole(m: TeamMember, role: TeamRole): void;
  setEnabled(m: TeamMember, enabled: boolean): void;
  remove(m: TeamMember): void;
}

export function MemberRow({ member: m, self, busy, actions }: { member: TeamMember; self: boolean; busy: boolean; actions: MemberActions }) {
  const [role, setRole] = useState<TeamRole>(m.role);
  const who = m.name ?? m.email ?? m.username;
  const selectId = `team-role-${m.username.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <tr>
      <td data-label={msg('fields.user.user')}>
        {/* One block, so the phone card keeps name, "(tú)" and e-mail together beside the label. */}
        <div>
          <strong>{who}</strong>
          {self && <span className="muted small"> {msg('fields.user.you')}</span>}
          {m.name && m.email && <div className="muted small">{m.email}</div>}
        </div>
      </td>
      <td data-label={msg('fields.user.role')}>
        {self ? (
          CUSTOMER_ROLE_LABELS[m.role]
        ) : (
          <span className="row-actions">
            <label htmlFor={selectId} className="visually-hidden">
              {msg('team.table.roleOf', { who })}
            </label>
            <select id={selectId} value={role} disabled={busy} onChange={(e) => setRole(e.target.value as TeamRole)}>
              {TEAM_ROLES.map((r) => (
                <option key={r} value={r}>
                  {CUSTOMER_ROLE_LABELS[r]}
                </option>
              ))}
            </select>
            {role !== m.role && (
              <button type="button" className="btn" disabled={busy} onClick={() => actions.changeRole(m, role)}>
                {msg('team.table.changeRole')}
              </button>
            )}
          </span>
        )}
      </td>
      <td data-label={msg('fields.user.status')}>{memberStatusLabel(m)}</td>
      <td data-label={msg('fields.common.actions')}>
        {/* Never on one's own row: the API refuses it (409 OWN_ACCOUNT). */}
        {!self && (
          <div className="row-actions">
            <button type="button" className="btn" disabled={busy} onClick={() => actions.setEnabled(m, !m.enabled)}>
              {m.enabled ? msg('actions.disable') : msg('actions.enable')}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => actions.remove(m)}>
              {msg('team.table.remove')}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
