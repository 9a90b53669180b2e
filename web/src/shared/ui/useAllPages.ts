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
import type { ApiClient, ApiError, CallInput } from '../lib/api';
import { callOp, useApi, withQuery } from '../lib/api-context';
import type { PageItem, PagedOperationId } from '../lib/api-context';
import type { Page } from '../lib/contract';

export interface AllPages<T> {
  items: T[];
  truncated: boolean;
}

/** Largest page the API serves (`Limit` in the contract). */
const PAGE_LIMIT = 100;

/** Reads pages with `get(cursor)` (no cursor = first page) until the cursor ends or `maxItems` is reached. Exported for tests. */
export async function collectPages<T>(get: (cursor: string | null) => Promise<Page<T>>, maxItems: number): Promise<AllPages<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const page: Page<T> = await get(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return { items, truncated: false };
    if (items.length >= maxItems) return { items: items.slice(0, maxItems), truncated: true };
  }
  return { items, truncated: true };
}

/**
 * Every item of paged operation `op` for `input` (pages of `PAGE_LIMIT`), up to `maxItems`. Rejects with
 * `ApiError`. Used by `useAllPages` and by exports that read a whole filtered list once (incident CSV).
 */
export function readAllPages<Op extends PagedOperationId>(api: ApiClient, op: Op, input: CallInput<Op>, maxItems: number): Promise<AllPages<PageItem<Op>>> {
  const first = withQuery(input, { limit: PAGE_LIMIT });
  return collectPages(async (cursor) => (await callOp(api, op, cursor ? withQuery(first, { cursor }) : first)) as Page<PageItem<Op>>, maxItems);
}

/** SWR hook over `readAllPages`; `input = null` waits. */
export function useAllPages<Op extends PagedOperationId>(op: Op, input: CallInput<Op> | null, maxItems = 1000) {
  const api = useApi();
  return useSWR<AllPages<PageItem<Op>>, ApiError, readonly [Op, CallInput<Op>, 'all', number] | null>(
    input ? [op, input, 'all', maxItems] : null,
    ([o, i, , max]) => readAllPages(api, o, i, max),
  );
}
