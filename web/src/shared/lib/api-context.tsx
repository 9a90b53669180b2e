/**
 * React wiring of the API: `ApiProvider` puts an `ApiClient` in context; `useApi()` reads it;
 * `useApiSWR` / `useApiSWRInfinite` are SWR hooks keyed by `[path, query]` so that a change of active
 * tenant (the `tenant` query parameter) is a new cache entry.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import type { SWRConfiguration } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { ApiClient, ApiError, Query } from './api';
import type { Page } from './contract';
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

/** SWR key of a GET: `[path, query]`; `null` pauses the request. */
export type ApiKey = readonly [string, Query];

/** GET `path` with `query` through SWR; pass `path = null` to wait (e.g. until the tenant is known). */
export function useApiSWR<T>(path: string | null, query: Query = {}, config?: SWRConfiguration<T, ApiError>) {
  const api = useApi();
  return useSWR<T, ApiError, ApiKey | null>(
    path ? [path, query] : null,
    async ([p, q]: ApiKey) => {
      try {
        return await api.get<T>(p, q);
      } catch (err) {
        throw toApiError(err);
      }
    },
    config,
  );
}

/**
 * The SWR-infinite key function for a cursor-paginated list (`Page<T>`): page 0 has no cursor, each
 * next page uses the previous page's `nextCursor`; stops when it is null. Exported so a feature can
 * revalidate a list with `mutate(unstable_serialize(pageKey(...)))`.
 */
export function pageKey(path: string | null, query: Query) {
  return (index: number, previous: Page<unknown> | null): ApiKey | null => {
    if (!path) return null;
    if (index === 0) return [path, query];
    if (!previous?.nextCursor) return null;
    return [path, { ...query, cursor: previous.nextCursor }];
  };
}

/** Cursor pagination over a `Page<T>` list endpoint ("Cargar más" = `setSize(size + 1)`). */
export function useApiSWRInfinite<T>(path: string | null, query: Query) {
  const api = useApi();
  const swr = useSWRInfinite<Page<T>, ApiError>(pageKey(path, query), async ([p, q]: ApiKey) => {
    try {
      return await api.get<Page<T>>(p, q);
    } catch (err) {
      throw toApiError(err);
    }
  });
  const pages = swr.data ?? [];
  const items = pages.flatMap((p) => p.items);
  const last = pages[pages.length - 1];
  const hasMore = !!last?.nextCursor;
  const isLoadingMore = swr.size > 0 && swr.data !== undefined && swr.data[swr.size - 1] === undefined;
  return { ...swr, items, hasMore, isLoadingMore, loadMore: () => swr.setSize(swr.size + 1) };
}
