/**
 * Loading, empty and error states shared by every data screen.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ApiError } from '../lib/api';
import { useT } from '../lib/messages';

/** Placeholder rows while data loads (`rows` grey bars), announced as "Cargando…". */
export function LoadingState({ rows = 4, label }: { rows?: number; label?: string }) {
  const t = useT();
  return (
    <div className="skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}

export function EmptyState({ children }: { children?: ReactNode }) {
  const t = useT();
  return <p className="empty-state">{children ?? t('common.noRecords')}</p>;
}

/**
 * Error box with the Spanish message of the error, its request id and a "Reintentar" button; for
 * MFA_REQUIRED (staff without TOTP, docs/api.md#staff-accounts-and-totp) also a link to `/profile`, where
 * TOTP is set up.
 */
export function ErrorState({ error, onRetry }: { error: ApiError | undefined; onRetry?: () => void }) {
  const t = useT();
  return (
    <div className="error-state" role="alert">
      <p>{error?.userMessage ?? t('ui.states.unexpectedError')}</p>
      {error?.code === 'MFA_REQUIRED' && (
        <p>
          <Link to="/profile">{t('ui.states.setUpMfa')}</Link>
        </p>
      )}
      {error?.requestId && <p className="muted small">{t('ui.states.reference', { id: error.requestId })}</p>}
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

/**
 * "Not found" box for a detail page whose item does not exist for the caller: an address with a malformed
 * id, or a 404 NOT_FOUND from the API. No "Reintentar" (retrying cannot make it appear); a link back to the
 * list instead (docs/portal.md#not-found).
 */
export function NotFoundState({ what, backTo, backLabel }: { what: string; backTo: string; backLabel: string }) {
  const t = useT();
  return (
    <div className="empty-state" role="status">
      <p>{t('ui.states.notFound', { what })}</p>
      <p>
        <Link to={backTo}>{backLabel}</Link>
      </p>
    </div>
  );
}

/** Small coloured label; `tone` picks the colour (CSS class `badge-<tone>`). */
export function Badge({ tone, children }: { tone: string; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** Page title block (`h1`) with optional actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}

/** "Próximamente" page for product routes not built yet (docs/portal.md#routes). */
export function ComingSoonPage({ title }: { title: string }) {
  const t = useT();
  return (
    <section>
      <PageHeader title={title} />
      <div className="card">
        <p>
          <strong>{t('ui.states.comingSoon')}</strong> {t('ui.states.comingSoonText')}
        </p>
      </div>
    </section>
  );
}
