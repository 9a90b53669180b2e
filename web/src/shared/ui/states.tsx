/**
 * Loading, empty and error states shared by every data screen.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ApiError } from '../lib/api';

/** Placeholder rows while data loads (`rows` grey bars), announced as "Cargando…". */
export function LoadingState({ rows = 4, label = 'Cargando…' }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row" aria-hidden="true" />
      ))}
    </div>
  );
}

export function EmptyState({ children = 'No hay registros' }: { children?: ReactNode }) {
  return <p className="empty-state">{children}</p>;
}

/**
 * Error box with the Spanish message of the error, its request id and a "Reintentar" button; for
 * MFA_REQUIRED (staff without TOTP, docs/api.md#staff-accounts-and-totp) also a link to `/profile`, where
 * TOTP is set up.
 */
export function ErrorState({ error, onRetry }: { error: ApiError | undefined; onRetry?: () => void }) {
  return (
    <div className="error-state" role="alert">
      <p>{error?.userMessage ?? 'Se produjo un error inesperado.'}</p>
      {error?.code === 'MFA_REQUIRED' && (
        <p>
          <Link to="/profile">Configurar la verificación en dos pasos</Link>
        </p>
      )}
      {error?.requestId && <p className="muted small">Referencia: {error.requestId}</p>}
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Reintentar
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
  return (
    <div className="empty-state" role="status">
      <p>{what} no encontrado.</p>
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
  return (
    <section>
      <PageHeader title={title} />
      <div className="card">
        <p>
          <strong>Próximamente.</strong> Esta sección estará disponible en una próxima versión del portal.
        </p>
      </div>
    </section>
  );
}
