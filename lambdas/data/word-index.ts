/**
 * The read side of the word indexes (comment search `comment-search.ts`, alarm search `alarm-search.ts`;
 * docs/data-model.md#search): one partition per (tenant, word) whose entries' sort keys are the hits'
 * positions (newest last) and whose `tokens` attribute holds every word of the hit.
 *
 * A search reads the partition of its LONGEST word (the rarest, as a rule), newest first, and keeps the entries
 * whose `tokens` contain every other word (`contains` FilterExpression, so the filter costs no extra request).
 * Bounded: at most `maxQueries` Queries of at most `read` entries each, stopping as soon as `limit` hits are
 * found; the caller re-reads each hit from its home partition and checks it there.
 */
import type { AttributeMap, TableRef } from './table/client.js';

/** What one page of a word index gives: the hits' positions (sort keys), newest first, and where the next page starts. */
export interface WordIndexPage {
  positions: string[];
  /** The position to continue after (the cursor's content), or undefined at the end. */
  next: string | undefined;
}

/**
 * One page of the word index for `tokens` (non-empty): see the module doc. `partitionOf(word)` is the index
 * partition key of a word; `from` the position to continue after (a cursor's content).
 */
export async function readWordIndexPage(
  table: TableRef,
  partitionOf: (word: string) => string,
  tokens: readonly string[],
  opts: { limit: number; from: string | undefined; read: number; maxQueries: number },
): Promise<WordIndexPage> {
  const word = [...tokens].sort((a, b) => b.length - a.length)[0]!;
  const others = tokens.filter((t) => t !== word);
  const pk = partitionOf(word);
  const found: string[] = [];
  let from = opts.from;
  let more = true;
  for (let q = 0; more && found.length < opts.limit && q < opts.maxQueries; q++) {
    const values: AttributeMap = { ':p': pk };
    others.forEach((t, n) => (values[`:t${n}`] = t));
    const res = await table.doc.send('Query', {
      TableName: table.tableName,
      KeyConditionExpression: 'PK = :p',
      ...(others.length ? { FilterExpression: others.map((_, n) => `contains(#tk, :t${n})`).join(' AND '), ExpressionAttributeNames: { '#tk': 'tokens' } } : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: opts.read,
      ...(from ? { ExclusiveStartKey: { PK: pk, SK: from } } : {}),
    });
    for (const i of res.Items ?? []) found.push(String(i.SK));
    more = !!res.LastEvaluatedKey;
    from = res.LastEvaluatedKey ? String(res.LastEvaluatedKey.SK) : undefined;
  }
  const positions = found.slice(0, opts.limit);
  return { positions, next: found.length > opts.limit ? positions[positions.length - 1] : more ? from : undefined };
}
