/**
 * Building blocks of the portal's cursor-paged, filterable lists (docs/portal.md#screens: incidents, devices, alarms,
 * Office 365, recommendations):
 *  - `ListFrame`: error (with "Reintentar") before the first page, loading, empty message, then the
 *    list, an error of a later page, and "Cargar más";
 *  - `LoadMore`: the "Cargar más" button alone (disabled and "Cargando…" while the next page loads);
 *  - `FilterSelect`: one labelled `<select>` of a filter bar, first option "Todos"/"Todas" = no filter;
 *  - `useFilterParams`: the filters kept in the URL's search parameters;
 *  - `DataTable`: a list's rows as a responsive table (docs/portal.md#screens), one column definition a column.
 * `list` is the shape returned by the features' paged-list hooks (`useApiSWRInfinite`).
 */
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ApiError } from '../lib/api';
import { EmptyState, ErrorState, LoadingState } from './states';
import { t as msg, useT } from '../lib/messages';

/** A column order: the column's key and the direction. */
export interface ColumnSort<K extends string> {
  key: K;
  direction: 'asc' | 'desc';
}

/**
 * A sortable column header (docs/portal.md#incident-list-sorting): a `<th>` with `aria-sort` and a button that
 * orders by `sortKey` ascending, then toggles the direction; ▲ / ▼ show the active order, ↕ a column that can be
 * sorted. `sort` is the current order (null = none), `onSort` receives the next one.
 */
export function SortableHeader<K extends string>({ sortKey, label, sort, onSort, className }: { sortKey: K; label: string; sort: ColumnSort<K> | null; onSort: (next: ColumnSort<K>) => void; className?: string }) {
  const active = sort?.key === sortKey ? sort : null;
  return (
    <th scope="col" className={className} aria-sort={active ? (active.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="th-sort" onClick={() => onSort({ key: sortKey, direction: active?.direction === 'asc' ? 'desc' : 'asc' })}>
        {label}
        <span aria-hidden="true">{active ? (active.direction === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
      </button>
    </th>
  );
}

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

/** Loading / error / empty / "Cargar más" frame around a paged list; `empty` is shown when no item matches, `loadingRows` sizes the placeholder. */
export function ListFrame({ list, empty, loadingRows, children }: { list: ListState; empty: string; loadingRows?: number; children: ReactNode }) {
  if (list.error && !list.data) return <ErrorState error={list.error} onRetry={() => void list.mutate()} />;
  if (list.isLoading || !list.data) return <LoadingState {...(loadingRows === undefined ? {} : { rows: loadingRows })} />;
  if (list.items.length === 0 && !list.hasMore) return <EmptyState>{empty}</EmptyState>;
  return (
    <>
      {children}
      {list.error && <ErrorState error={list.error} onRetry={() => void list.mutate()} />}
      <LoadMore list={list} />
    </>
  );
}

/** One column of a `DataTable`: its header text (also each cell's `data-label`) and what a row shows in it. */
export interface DataColumn<T> {
  label: string;
  /** The header is for screen readers only (e.g. a column of action buttons). */
  hiddenLabel?: boolean;
  cell: (row: T) => ReactNode;
  /** A class for the row's cell (e.g. `sla-breached`); none when it answers undefined. */
  cellClass?: (row: T) => string | undefined;
  /** A class for the column's header (e.g. `num`). */
  headerClass?: string;
}

/**
 * The rows as a `data-table responsive`: a visually hidden caption (or `headingId`, the id of the heading that
 * names the table), one `<th scope="col">` a column, and each cell labelled with its column's header
 * (`data-label`, shown before the value on narrow screens, styles.css). `responsive={false}`: a plain
 * `data-table` (no `data-label`), for a small table that fits any screen. `rowKey` is the React key of a row
 * (unique within `rows`).
 */
export function DataTable<T>({ caption, headingId, responsive = true, columns, rows, rowKey }: {
  caption?: string;
  headingId?: string;
  responsive?: boolean;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
}) {
  return (
    <table className={responsive ? 'data-table responsive' : 'data-table'} aria-labelledby={headingId}>
      {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={c.headerClass}>
              {c.hiddenLabel ? <span className="visually-hidden">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.label} data-label={responsive ? c.label : undefined} className={c.cellClass?.(row)}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "Cargar más" under a list while `list.hasMore`; nothing otherwise. */
export function LoadMore({ list }: { list: Pick<ListState, 'hasMore' | 'isLoadingMore' | 'loadMore'> }) {
  const t = useT();
  if (!list.hasMore) return null;
  return (
    <p className="load-more">
      <button type="button" className="btn" disabled={list.isLoadingMore} onClick={() => void list.loadMore()}>
        {list.isLoadingMore ? t('common.loading') : t('ui.lists.loadMore')}
      </button>
    </p>
  );
}

/**
 * A labelled select of the filter bar; `''` = no filter. `options` are `[value, label]` pairs; `all` is the
 * text of the no-filter option ("Todos" by default, "Todas" for feminine nouns; `null` = no such option).
 */
export function FilterSelect({ id, label, value, options, onChange, all = msg('ui.lists.all') }: { id: string; label: string; value: string; options: readonly (readonly [string, string])[]; onChange: (v: string) => void; all?: string | null }) {
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

/**
 * A free-text filter field: typing does not filter; Enter or leaving the field applies the trimmed text
 * (`''` clears the filter). `value` is the applied filter (from the URL); a new value resets the draft.
 */
export function FilterText({ id, label, value, placeholder, onApply }: { id: string; label: string; value: string; placeholder?: string; onApply: (v: string) => void }) {
  const [draft, setDraft] = useState({ for: value, text: value });
  const text = draft.for === value ? draft.text : value;
  const apply = () => {
    if (text.trim() !== value) onApply(text.trim());
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(e) => setDraft({ for: value, text: e.target.value })}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
        }}
      />
    </div>
  );
}

/**
 * Filters kept in the URL's search parameters: `params` as read, `set(key, value)` sets one (`''` removes
 * it) and replaces the history entry, so Back leaves the page instead of undoing a filter.
 */
export function useFilterParams(): { params: URLSearchParams; set: (key: string, value: string) => void } {
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  return { params, set };
}
