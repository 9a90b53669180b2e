/**
 * The Office 365 user search (`GET /search/office365-users`; docs/api.md#office-365-user-search,
 * docs/data-model.md#search; issue 32 point 8).
 *
 * What a "user" is, decided from the data: Vigía stores no Office 365 user directory and no display names — only
 * alerts (`Office365Alarm.affectedUser`, a UPN, kept for good) and audit events (`Office365Event.user`, expiring
 * after `retention.o365EventDays`, one of them per sign-in: far too many to index one by one). So the search
 * answers the users the tenant's ALERTS named: every alert with an `affectedUser` Puts, in its own
 * TransactWriteItems (`o365UserWrites`, from `upsertO365Alarm`), one `Office365User` item per prefix-searchable part
 * of the UPN (`upnKeys`: the UPN and each suffix starting a word of its local part, ≤ 4) in the tenant's ONE
 * `TENANT#<t>#O365USERS` partition, SK `<part>#<upn>`, carrying the UPN and the alert most recently received about
 * them. Searching by a display name word is therefore searching by the words of the UPN's local part
 * (`maria.lopez@…` is found by `maria`, `lopez`, `maria.lo`). Alerts stored before the index are added by
 * `ensureO365Users` (`upgradeO365UserSearch`, `npm run platform:upgrade-data`).
 *
 * A search (`searchO365Users`) Queries that partition with `begins_with(SK, <longest word>)` (the other words as a
 * FilterExpression `contains(upnKey, …)`), `USER_SEARCH_READ` entries a Query, at most `USER_SEARCH_MAX_QUERIES`
 * Queries: ≤ 4 requests a page, whatever the tenant's size, and no second read (the entries are the answer).
 * Order: the matched UPN part's (alphabetical), so the closest completions of the prefix come first; a user found
 * by two parts appears once a page. Cursor: base64url of `{ p: "<part>#<upn>" }`, the last entry looked at, which
 * must start with the query's longest word.
 */
import type { Office365Alarm, Page } from '../contract/schemas.js';
import type { Office365UserHit } from '../contract/search.js';
import { upnKeys, userSearchWords } from '../domain/search.js';
import type { AttributeMap, TableRef, TransactWriteItem } from './table/client.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { batchGetAll, batchWriteAll, queryAll } from './table/dynamo-util.js';
import { itemOf, O365AlarmEntity, O365UserEntity, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { indexOf } from './access-patterns.js';

/** Entries one user-search Query reads at most (~0.2 KB each: ≤ 3 RCU eventually consistent). */
export const USER_SEARCH_READ = 100;
/** Queries a user-search page sends at most (and nothing else: ≤ 4 requests a page). */
export const USER_SEARCH_MAX_QUERIES = 4;

/** The Office365User items of the user alert `a` names (none without `affectedUser`). */
export function o365UserItems(a: Pick<Office365Alarm, 'tenantId' | 'id' | 'affectedUser' | 'detectedAt'>): AttributeMap[] {
  const upn = a.affectedUser?.trim();
  if (!upn) return [];
  return upnKeys(upn).map((part) => itemOf(O365UserEntity, { tenantId: a.tenantId, part, upn, lastAlertAt: a.detectedAt, lastAlertId: a.id }));
}

/**
 * The TransactWriteItems actions of an alert's write from `before` (null: a new alert) to `after`: a Put of each of
 * the user's entries (≤ 4) when the alert is new or names another user than before, else none (a status update
 * writes nothing). An earlier user's entries stay: that user was named by an alert. Pure.
 */
export function o365UserWrites(tableName: string, before: Office365Alarm | null, after: Office365Alarm): TransactWriteItem[] {
  if (before && before.affectedUser === after.affectedUser) return [];
  return o365UserItems(after).map((Item) => ({ Put: { TableName: tableName, Item } }) as TransactWriteItem);
}

/**
 * Puts the users named by the alerts of tenant `tenantId` stored before the user search: its alert list (GSI1) read
 * whole, the newest alert of each user kept, ONE BatchGetItem of their entry keys, Puts of the missing ones.
 * Idempotent: a second run writes nothing. Returns how many entries were written.
 */
export async function ensureO365Users(table: TableRef, tenantId: string): Promise<number> {
  const alerts = (await queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': keys.o365AlarmsGsi1Pk(tenantId) } })).map((i) =>
    recordOf(O365AlarmEntity, i),
  );
  const newest = new Map<string, Office365Alarm>();
  for (const a of alerts) {
    const upn = a.affectedUser?.trim().toLowerCase();
    if (upn && (!newest.has(upn) || newest.get(upn)!.detectedAt < a.detectedAt)) newest.set(upn, a);
  }
  const items = [...newest.values()].flatMap(o365UserItems);
  if (!items.length) return 0;
  const present = new Set((await batchGetAll(table, items.map((i) => ({ PK: i.PK, SK: i.SK })), { projection: 'PK, SK' })).map((i) => String(i.SK)));
  const missing = items.filter((i) => !present.has(String(i.SK)));
  await batchWriteAll(table, missing.map((Item) => ({ PutRequest: { Item } })));
  return missing.length;
}

/**
 * One page of the users the tenant's alerts named whose UPN has a part starting with the longest word of `opts.q`
 * and contains the others (`userSearchWords`: folded, one-letter words left out; none left: an empty page); see
 * the module doc. ≤ `USER_SEARCH_MAX_QUERIES` Queries of ≤ `USER_SEARCH_READ` entries.
 * @throws ApiError VALIDATION_FAILED (`query.cursor`) for a cursor this search (with this longest word) did not write.
 */
export async function searchO365Users(table: TableRef, tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<Office365UserHit>> {
  const words = userSearchWords(opts.q);
  const word = [...words].sort((a, b) => b.length - a.length)[0];
  let from = opts.cursor ? decodePositionCursor(opts.cursor, (p) => word !== undefined && p.length <= 700 && p.startsWith(word) && p.includes('#')) : undefined;
  if (word === undefined) return { items: [], nextCursor: null };
  const others = words.filter((w) => w !== word);
  const pk = keys.o365UsersPk(tenantId);
  const found: { sk: string; hit: Office365UserHit }[] = [];
  const seen = new Set<string>();
  let more = true;
  for (let q = 0; more && found.length < opts.limit && q < USER_SEARCH_MAX_QUERIES; q++) {
    const values: AttributeMap = { ':p': pk, ':w': word };
    others.forEach((t, n) => (values[`:t${n}`] = t));
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :p AND begins_with(SK, :w)',
      ...(others.length ? { FilterExpression: others.map((_, n) => `contains(upnKey, :t${n})`).join(' AND ') } : {}),
      ExpressionAttributeValues: values,
      Limit: USER_SEARCH_READ,
      ...(from ? { ExclusiveStartKey: { PK: pk, SK: from } } : {}),
    });
    for (const i of res.Items ?? []) {
      const hit = recordOf(O365UserEntity, i) as Office365UserHit;
      const key = String(i.upnKey ?? hit.upn.toLowerCase());
      // A user found by two parts of the UPN: once (its first entry in the page).
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ sk: String(i.SK), hit });
    }
    more = !!res.LastEvaluatedKey;
    from = res.LastEvaluatedKey ? String(res.LastEvaluatedKey.SK) : undefined;
  }
  const page = found.slice(0, opts.limit);
  const next = found.length > opts.limit ? page[page.length - 1]!.sk : more ? from : undefined;
  return { items: page.map((f) => f.hit), nextCursor: next === undefined ? null : encodePositionCursor(next) };
}
