/**
 * `useAllPages`: every item of a cursor-paginated list route (`Page<T>`), for screens that summarise a
 * whole set (dashboard counts, trend charts, calendar, notifications).
 *
 * Follows `nextCursor` until it is null or `maxItems` items were read (the API may return short pages
 * with a non-null cursor — `ListIncidentsQuery` in `lambdas/contract/schemas.ts` — so the loop is on the
 * cursor, never on the page length). `truncated` is true when it stopped at `maxItems` with more left.
 * Errors are `ApiError`s (SWR `error`); `mutate()` retries.
 */
import useSWR from 'swr';
import type { ApiError, Query } from '../lib/api';
import { toApiError } from '../lib/api';
import { useApi } from '../lib/api-context';
import type { Page } from '../lib/contract';

export interface AllPages<T> {
  items: T[];
  truncated: boolean;
}

/** Largest page the API serves (`Limit` in the contract). */
const PAGE_LIMIT = 100;

/** Reads pages with `get` until the cursor ends or `maxItems` is reached. Exported for tests. */
export async function collectPages<T>(
  get: (query: Query) => Promise<Page<T>>,
  query: Query,
  maxItems: number,
): Promise<AllPages<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const page: Page<T> = await get({ ...query, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return { items, truncated: false };
    if (items.length >= maxItems) return { items: items.slice(0, maxItems), truncated: true };
  }
  return { items, truncated: true };
}

/** SWR hook over `collectPages`; `path = null` waits. */
export function useAllPages<T>(path: string | null, query: Query, maxItems = 1000) {
  const api = useApi();
  return useSWR<AllPages<T>, ApiError, readonly [string, Query, 'all', number] | null>(
    path ? [path, query, 'all', maxItems] : null,
    async ([p, q, , max]) => {
      try {
        return await collectPages((qq) => api.get<Page<T>>(p, qq), q, max);
      } catch (err) {
        throw toApiError(err);
      }
    },
  );
}
