/** The users table of the administration screens: e-mail, status, MFA, created, and the row's actions. */
import type { ReactNode } from 'react';
import type { PoolUser } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';
import { userStatusLabel } from './admin-notice';

export function UserTable({ users, staffNames, render }: { users: PoolUser[]; staffNames: Set<string>; render: (u: PoolUser) => ReactNode }) {
  return (
    <table className="data-table responsive">
      <caption className="visually-hidden">{msg('admin.pages.usersCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{msg('fields.user.user')}</th>
          <th scope="col">{msg('fields.user.status')}</th>
          <th scope="col">{msg('admin.pages.mfa')}</th>
          <th scope="col">{msg('admin.pages.created')}</th>
          <th scope="col">{msg('fields.common.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.username}>
            <td data-label={msg('fields.user.user')}>
              {u.email ?? u.username}
              {staffNames.has(u.username) && <span className="muted small"> {msg('admin.pages.soc')}</span>}
            </td>
            <td data-label={msg('fields.user.status')}>{userStatusLabel(u)}</td>
            <td data-label={msg('admin.pages.mfa')}>{u.mfa ? msg('admin.pages.on') : msg('admin.pages.notSetUp')}</td>
            <td data-label={msg('admin.pages.created')}>{u.createdAt ? formatDateTime(u.createdAt) : '—'}</td>
            <td data-label={msg('fields.common.actions')}>
              <div className="row-actions">{render(u)}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
