/**
 * The device alarm search index (`GET /search/alarms`; docs/api.md#alarm-search, docs/data-model.md#search; issue 32
 * point 8). Every device alarm has one `AlarmToken` item per indexed word of its `title` (`alarmTokens`: folded,
 * stop words dropped, the first 16 distinct), in the partition of that word (`TENANT#<t>#ASEARCH#<token>`, SK
 * `<raisedAt>#<deviceId>#<alarmId>`, the alarm list's own order), each carrying all the title's indexed words.
 * The title is the alarm's only text (a `DeviceAlarm` has no description; its `deviceName` is the device's and
 * is found by the device list's name search instead).
 *
 * Unlike a comment's words, an alarm's words are written IN the alarm's own TransactWriteItems (`alarmTokenWrites`,
 * used by `raiseAlarm`, `putAlarm` and `transitionAlarm`): a raise Puts them; a replace whose title or `raisedAt`
 * changed Puts the new ones and Deletes the old ones no longer named; a move to `cleared` Puts them again with the
 * alarm's TTL (`expiresAt` = `clearedAt` + 90 days, `AlarmTokenEntity`), so they expire with the alarm. Alarms
 * stored before the index get theirs from `upgradeAlarmSearch` (`npm run platform:upgrade-data`).
 *
 * A search (`searchAlarms`) reads the partition of the query's longest word newest first, the other words as a
 * FilterExpression on `tokens`, `ALARM_SEARCH_READ` entries a Query, at most `ALARM_SEARCH_MAX_QUERIES` Queries
 * until `limit` matches, then ONE BatchGetItem of the alarms from their device partitions (each re-checked:
 * present, same `raisedAt`, title still matching): ≤ 7 requests a page whatever the tenant's size.
 * Cursor: base64url of `{ p: "<raisedAt>#<deviceId>#<alarmId>" }`, the last entry looked at.
 */
import type { DeviceAlarm, Page } from '../contract/schemas.js';
import { alarmMatches, alarmTokens, searchTokens } from '../domain/search.js';
import { readWordIndexPage } from './word-index.js';
import type { AttributeMap, TableRef, TransactWriteItem } from './table/client.js';
import { decodePositionCursor, encodePositionCursor } from './table/cursor.js';
import { batchGetAll, batchWriteAll, queryAll } from './table/dynamo-util.js';
import { AlarmEntity, AlarmTokenEntity, itemOf, recordOf } from './entities.js';
import { keys } from './table/keys.js';
import { indexOf } from './access-patterns.js';

/** Entries one alarm-search Query reads at most (~0.3 KB each with 16 words: ≤ 4 RCU eventually consistent). */
export const ALARM_SEARCH_READ = 100;
/** Queries an alarm-search page sends at most (then ONE BatchGetItem: ≤ 7 requests a page). */
export const ALARM_SEARCH_MAX_QUERIES = 6;

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[A-Za-z0-9_.-]{1,64}#[A-Za-z0-9_.-]{1,64}$/;

/** The AlarmToken items of `a` (one per indexed word of its title), with its TTL when it is cleared. */
export function alarmTokenItems(a: Pick<DeviceAlarm, 'tenantId' | 'deviceId' | 'id' | 'title' | 'raisedAt' | 'state' | 'clearedAt'>): AttributeMap[] {
  const tokens = alarmTokens(a.title);
  return tokens.map((token) => itemOf(AlarmTokenEntity, { tenantId: a.tenantId, token, deviceId: a.deviceId, alarmId: a.id, raisedAt: a.raisedAt, tokens, state: a.state, clearedAt: a.clearedAt }));
}

/**
 * The TransactWriteItems actions that keep `after`'s word items right when the alarm goes from `before` (null: a
 * new alarm) to `after`: nothing when neither the title, `raisedAt`, the state's being `cleared` nor `clearedAt`
 * changed (an acknowledgement writes no word); else a Put of each of `after`'s words (≤ 16) and a Delete of each
 * of `before`'s whose key is not among them (≤ 16). Pure; the caller puts them in the alarm's transaction.
 */
export function alarmTokenWrites(tableName: string, before: DeviceAlarm | null, after: DeviceAlarm): TransactWriteItem[] {
  if (before && before.title === after.title && before.raisedAt === after.raisedAt && (before.state === 'cleared') === (after.state === 'cleared') && before.clearedAt === after.clearedAt) return [];
  const puts = alarmTokenItems(after);
  const kept = new Set(puts.map((i) => `${String(i.PK)}|${String(i.SK)}`));
  const deletes = before
    ? alarmTokenItems(before)
        .filter((i) => !kept.has(`${String(i.PK)}|${String(i.SK)}`))
        .map((i) => ({ Delete: { TableName: tableName, Key: { PK: i.PK, SK: i.SK } } }) as TransactWriteItem)
    : [];
  return [...puts.map((Item) => ({ Put: { TableName: tableName, Item } }) as TransactWriteItem), ...deletes];
}

/**
 * Puts the device alarms stored before the alarm search in its index: for tenant `tenantId`, its alarm list (GSI1)
 * read whole, BatchGetItems of all their word keys (100 a request), a BatchWriteItem of the missing ones (with the
 * alarm's TTL). Idempotent: a second run writes nothing. Returns how many word items were written.
 */
export async function ensureAlarmTokens(table: TableRef, tenantId: string): Promise<number> {
  const alarms = await queryAll(table, { IndexName: indexOf('tenantLists'), KeyConditionExpression: 'GSI1PK = :p', ExpressionAttributeValues: { ':p': keys.alarmsGsi1Pk(tenantId) } });
  const words = alarms.flatMap((it) => alarmTokenItems(recordOf(AlarmEntity, it)));
  if (!words.length) return 0;
  const present = new Set((await batchGetAll(table, words.map((i) => ({ PK: i.PK, SK: i.SK })), { projection: 'PK, SK' })).map((i) => `${String(i.PK)}|${String(i.SK)}`));
  const missing = words.filter((i) => !present.has(`${String(i.PK)}|${String(i.SK)}`));
  await batchWriteAll(table, missing.map((Item) => ({ PutRequest: { Item } })));
  return missing.length;
}

/**
 * One page of the tenant's device alarms whose title has every word of `opts.q` (`alarmMatches`), newest raised
 * first; see the module doc. ≤ `ALARM_SEARCH_MAX_QUERIES` Queries of ≤ `ALARM_SEARCH_READ` entries, then ONE
 * BatchGetItem of ≤ `limit` alarms from their device partitions. A `q` of stop words and one-letter words only
 * matches nothing (an empty page, as the comment search).
 * @throws ApiError VALIDATION_FAILED (`query.cursor`) for a cursor this search did not write.
 */
export async function searchAlarms(table: TableRef, tenantId: string, opts: { q: string; limit: number; cursor?: string | undefined }): Promise<Page<DeviceAlarm>> {
  const tokens = searchTokens(opts.q);
  const from = opts.cursor ? decodePositionCursor(opts.cursor, (p) => POSITION.test(p)) : undefined;
  if (tokens.length === 0) return { items: [], nextCursor: null };
  const { positions: page, next } = await readWordIndexPage(table, (w) => keys.alarmTokenPk(tenantId, w), tokens, { limit: opts.limit, from, read: ALARM_SEARCH_READ, maxQueries: ALARM_SEARCH_MAX_QUERIES });
  const refs = page.map((sk) => {
    const [raisedAt, deviceId, alarmId] = sk.split('#') as [string, string, string];
    return { raisedAt, key: keys.alarm(tenantId, deviceId, alarmId) };
  });
  const got = new Map<string, DeviceAlarm>();
  for (const it of await batchGetAll(table, refs.map((r) => r.key))) got.set(`${String(it.PK)}|${String(it.SK)}`, recordOf(AlarmEntity, it));
  const items: DeviceAlarm[] = [];
  for (const r of refs) {
    const a = got.get(`${r.key.PK}|${r.key.SK}`);
    // Only an alarm still there, raised at the entry's time, whose title still has every word, is returned.
    if (!a || a.raisedAt !== r.raisedAt || !alarmMatches(a.title, tokens)) continue;
    items.push(a);
  }
  return { items, nextCursor: next === undefined ? null : encodePositionCursor(next) };
}
