/** Loading / error / empty / "Cargar más" frame shared by the two Office 365 lists. */
import type { ReactNode } from 'react';
import type { ApiError } from '../../shared/lib/api';
import { EmptyState, ErrorState, LoadingState } from '../../shared/ui/states';

export interface ListState {
  error: ApiError | undefined;
  data: unknown;
  isLoading: boolean;
  items: unknown[];
  hasMore: boolean;
  isLoadingMore: boolean;
  mutate: () => unknown;
  loadMore: () => unknown;
}

export function ListFrame({ list, empty, children }: { list: ListState; empty: string; children: ReactNode }) {
  if (list.error && !list.data) return <ErrorState error={list.error} onRetry={() => void list.mutate()} />;
  if (list.isLoading || !list.data) return <LoadingState />;
  if (list.items.length === 0 && !list.hasMore) return <EmptyState>{empty}</EmptyState>;
  return (
    <>
      {children}
      {list.error && <ErrorState error={list.error} onRetry={() => void list.mutate()} />}
      {list.hasMore && (
        <p className="load-more">
          <button type="button" className="btn" disabled={list.isLoadingMore} onClick={() => void list.loadMore()}>
            {list.isLoadingMore ? 'Cargando…' : 'Cargar más'}
          </button>
        </p>
      )}
    </>
  );
}

/** A labelled select of the filter bar; `''` = no filter. */
export function FilterSelect({ id, label, value, options, onChange, all = 'Todos' }: { id: string; label: string; value: string; options: readonly (readonly [string, string])[]; onChange: (v: string) => void; all?: string | null }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {all !== null && <option value="">{all}</option>}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}
