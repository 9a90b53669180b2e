/**
 * `/incidents/all`: the tenant's incidents, newest first, with cursor pagination ("Cargar más").
 * A table on wide screens; the same rows render as cards under 640 px (CSS).
 */
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../shared/lib/format';
import { IncidentStatusBadge, SeverityBadge } from '../../shared/ui/badges';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import { useIncidentList } from './api';

export function IncidentListPage() {
  const list = useIncidentList();
  return (
    <section>
      <PageHeader title="Incidentes">
        <Link to="/incidents/new" className="btn btn-primary">
          Agregar incidente
        </Link>
      </PageHeader>
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading ? (
        <LoadingState />
      ) : list.items.length === 0 ? (
        <EmptyState>No hay incidentes registrados.</EmptyState>
      ) : (
        <>
          <table className="data-table responsive">
            <caption className="visually-hidden">Lista de incidentes</caption>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Título</th>
                <th scope="col">Severidad</th>
                <th scope="col">Estado</th>
                <th scope="col">Creado</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((inc) => (
                <tr key={inc.id}>
                  <td data-label="ID">
                    <Link to={`/ticket/update/${encodeURIComponent(inc.id)}`}>{inc.id}</Link>
                  </td>
                  <td data-label="Título">{inc.title}</td>
                  <td data-label="Severidad">
                    <SeverityBadge severity={inc.severity} />
                  </td>
                  <td data-label="Estado">
                    <IncidentStatusBadge status={inc.status} />
                  </td>
                  <td data-label="Creado">
                    <time dateTime={inc.createdAt}>{formatDateTime(inc.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.error && <ErrorState error={list.error} onRetry={() => void list.mutate()} />}
          {list.hasMore && (
            <p className="load-more">
              <button type="button" className="btn" disabled={list.isLoadingMore} onClick={() => void list.loadMore()}>
                {list.isLoadingMore ? 'Cargando…' : 'Cargar más'}
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
