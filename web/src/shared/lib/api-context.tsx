/**
 * React wiring of the API: `ApiProvider` puts an `ApiClient` in context; `useApi()` reads it;
 * `useApiSWR` / `useApiSWRInfinite` are SWR hooks keyed by `[operationId, input]` (SWR hashes the input by
 * value), so a change of active tenant (the `tenant` query parameter) or of a filter is a new cache entry.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import type { SWRConfiguration } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { ApiClient, ApiError, CallArgs, CallInput } from './api';
import type { OperationId, OperationResponse, Page } from './contract';
import { toApiError } from './api';

const ApiContext = createContext<ApiClient | null>(null);

export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The API client of the signed-in app; throws if used outside `ApiProvider` (a programming error). */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi() outside <ApiProvider>');
  return client;
}

/** SWR key of a call: `[operationId, input]`; `null` pauses the request. */
export type ApiKey<Op extends OperationId = OperationId> = readonly [Op, CallInput<Op>];

/** Calls `op` with `input`, rethrowing any failure as `ApiError` (what SWR hands to `error`). */
export async function callOp<Op extends OperationId>(api: ApiClient, op: Op, input: CallInput<Op>): Promise<OperationResponse<Op>> {
  try {
    return await api.call(op, ...([input] as CallArgs<Op>));
  } catch (err) {
    throw toApiError(err);
  }
}

/**
 * Reads operation `op` with `input` through SWR; pass `input = null` to wait (e.g. until the tenant is
 * known or an id is chosen). `data` is the operation's response type.
 */
export function useApiSWR<Op extends OperationId>(
  op: Op,
  input: CallInput<Op> | null,
  config?: SWRConfiguration<OperationResponse<Op>, ApiError>,
) {
  const api = useApi();
  return useSWR<OperationResponse<Op>, ApiError, ApiKey<Op> | null>(input ? [op, input] : null, ([o, i]: ApiKey<Op>) => callOp(api, o, i), config);
}

/** Operations that answer a cursor page (`{ items, nextCursor }`, the `Page` of the contract). */
export type PagedOperationId = {
  [Op in OperationId]: OperationResponse<Op> extends Page<unknown> ? Op : never;
}[OperationId];

/** The item type of a paged operation (`listDevices` → `Device`). */
export type PageItem<Op extends PagedOperationId> = OperationResponse<Op> extends Page<infer T> ? T : never;

/** `input` with `extra` query parameters added (e.g. the next page's `cursor`, a page size). */
export function withQuery<Op extends OperationId>(input: CallInput<Op>, extra: Readonly<Record<string, unknown>>): CallInput<Op> {
  const base = input as { query?: object };
  return { ...base, query: { ...base.query, ...extra } } as CallInput<Op>;
}

/**
 * The SWR-infinite key function for a cursor-paginated list: page 0 has no cursor, each next page uses
 * the previous page's `nextCursor`; stops when it is null. Exported so a feature can revalidate a list
 * with `mutate(unstable_serialize(pageKey(...)))`.
 */
export function pageKey<Op extends PagedOperationId>(op: Op, input: CallInput<Op> | null) {
  return (index: number, previous: Page<unknown> | null): ApiKey<Op> | null => {
    if (!input) return null;
    if (index === 0) return [op, input];
    if (!previous?.nextCursor) return null;
    return [op, withQuery(input, { cursor: previous.nextCursor })];
  };
}

/** Cursor pagination over a paged operation ("Cargar más" = `loadMore()`); `input = null` waits. */
export function useApiSWRInfinite<Op extends PagedOperationId>(op: Op, input: CallInput<Op> | null) {
  const api = useApi();
  const swr = useSWRInfinite<OperationResponse<Op>, ApiError>(pageKey(op, input), ([o, i]: ApiKey<Op>) => callOp(api, o, i));
  const pages = (swr.data ?? []) as Page<PageItem<Op>>[];
  const items = pages.flatMap((p) => p.items);
  const last = pages[pages.length - 1];
  const hasMore = !!last?.nextCursor;
  const isLoadingMore = swr.size > 0 && swr.data !== undefined && swr.data[swr.size - 1] === undefined;
  return { ...swr, items, hasMore, isLoadingMore, loadMore: () => swr.setSize(swr.size + 1) };
}
