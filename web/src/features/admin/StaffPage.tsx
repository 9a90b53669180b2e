/** `/admin/staff` (staff, docs/portal.md#administration): the SOC staff (`admin` group) with "Quitar acceso SOC" (never on one's own row). */
import { useState } from 'react';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useAdminActions, useStaff } from './api';
import { useTenant } from '../../shared/lib/tenant';
import { confirmTexts, useConfirm } from './confirmTexts';
import { t as msg } from '../../shared/lib/messages';
import { NoticeBox, attempt, type Notice } from './admin-notice';
import { AdminNav } from './AdminNav';
import { UserTable } from './UserTable';

export function StaffPage() {
  const staff = useStaff();
  const { revokeStaff } = useAdminActions();
  const { me } = useTenant();
  const [dialog, ask] = useConfirm();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  return (
    <section>
      <AdminNav />
      <PageHeader title={msg('menu.staff')} />
      <div className="card">
        <p className="muted">{msg('admin.pages.staffIntro')}</p>
        {dialog}
        <NoticeBox notice={notice} />
        {staff.error && !staff.data ? (
          <ErrorState error={staff.error} onRetry={() => void staff.mutate()} />
        ) : staff.isLoading || !staff.data ? (
          <LoadingState />
        ) : staff.data.items.length === 0 ? (
          <EmptyState />
        ) : (
          <UserTable
            users={staff.data.items}
            staffNames={new Set()}
              render={(u) =>
              // Never on one's own row: the API refuses it (409 OWN_STAFF_ACCESS).
              u.sub === me?.sub ? (
                <span className="muted small">{msg('fields.user.you')}</span>
              ) : (
              <button
                type="button"
                className="btn"
                disabled={busy !== null}
                onClick={() =>
                  void (async () => {
                    if (!(await ask(confirmTexts('revokeStaff', u.email ?? u.username)))) return;
                    setBusy(u.username);
                    setNotice(await attempt(() => revokeStaff(u.username), `${u.email ?? u.username} ya no es personal SOC.`));
                    setBusy(null);
                  })()
                }
              >
                {msg('admin.pages.revokeSocAccess')}
              </button>
            )
            }
          />
        )}
      </div>
    </section>
  );
}
