/**
 * What one DynamoDB JSON 1.0 request touches, for the local rules layer: the items it writes (identity for
 * the transaction locks), the partitions it reads or writes (identity for the throughput meter) and a size
 * estimate of each write (to spread the engine's consumed units over them).
 *
 * Identities (strings, opaque to callers):
 *  - item: `<table>` NUL `<hash key value>` NUL `<range key value>` (values as JSON of their wire form);
 *  - partition: `<table>|<hash value>` for the table, `<table>/index/<index>|<hash value>` for a global
 *    secondary index (DynamoDB meters a GSI's partitions apart from the table's: "Best practices for
 *    designing and using partition keys effectively",
 *    https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
 *
 * Operations understood: GetItem, PutItem, UpdateItem, DeleteItem, Query, BatchGetItem, BatchWriteItem,
 * TransactWriteItems, TransactGetItems; any other (Scan, table management…) touches nothing. An action on a
 * table with no known key schema is a placeholder (empty item and partition: no rule applies to it; the
 * engine answers it, e.g. ResourceNotFound); batches and transactions keep one touch per request/action, in
 * order.
 */
import { itemSize, writeUnits, type WireItem } from './item-size.js';

/** The key schema of one table: hash and range key names, and each GSI's hash key name. */
export interface KeySchema {
  hashKey: string;
  rangeKey?: string | undefined;
  indexes: Record<string, string>;
}

/** One item-level action of a request. */
export interface Touch {
  table: string;
  /** Item identity (see module doc); '' for a Query (a partition, no single item). */
  item: string;
  /** The table partition; plus, for a Query on an index, that index's partition instead. */
  partition: string;
  /** Index partitions a Put writes (the GSIs whose hash key the new item carries). */
  indexPartitions: Array<{ index: string; partition: string }>;
  /** Estimated write units (Puts: from the item's size; others: 1). */
  weight: number;
}

/** A request's item-level actions and whether it reads or writes. */
export interface RequestTouches {
  kind: 'read' | 'write';
  touches: Touch[];
}

const json = (v: unknown) => JSON.stringify(v ?? null);

/** The item identity of `key` (or a whole item) in `table`. */
export function itemIdentity(table: string, schema: KeySchema, key: WireItem): string {
  return `${table}\u0000${json(key[schema.hashKey])}\u0000${schema.rangeKey ? json(key[schema.rangeKey]) : ''}`;
}

/** The partition identity of hash value `value` in `table` (or its `index`). */
export function partitionIdentity(table: string, value: unknown, index?: string): string {
  return `${index ? `${table}/index/${index}` : table}|${json(value)}`;
}

/** An action the rules cannot place (unknown table or malformed): no item, no partition. */
const placeholder = (table: string): Touch => ({ table, item: '', partition: '', indexPartitions: [], weight: 1 });

function touchOf(table: string, schema: KeySchema, key: WireItem, put?: WireItem): Touch {
  const indexPartitions = put
    ? Object.entries(schema.indexes)
        .filter(([, hash]) => put[hash] !== undefined)
        .map(([index, hash]) => ({ index, partition: partitionIdentity(table, put[hash], index) }))
    : [];
  return {
    table,
    item: itemIdentity(table, schema, key),
    partition: partitionIdentity(table, key[schema.hashKey]),
    indexPartitions,
    weight: put ? writeUnits(itemSize(put)) : 1,
  };
}

/**
 * The partition a Query reads: the value compared with `=` to the (table's or index's) hash key in the
 * `KeyConditionExpression`, the key named directly or through `ExpressionAttributeNames`. Undefined when it
 * cannot be found (the engine will reject such a query anyway).
 */
export function queryPartition(body: Record<string, unknown>, table: string, schema: KeySchema): string | undefined {
  const index = typeof body.IndexName === 'string' ? body.IndexName : undefined;
  const hash = index ? schema.indexes[index] : schema.hashKey;
  const expr = body.KeyConditionExpression;
  if (!hash || typeof expr !== 'string') return undefined;
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const operand = '(#?[A-Za-z0-9_]+)';
  for (const m of expr.matchAll(new RegExp(`${operand}\\s*=\\s*(:[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)\\s*=\\s*${operand}`, 'g'))) {
    const [name, placeholder] = m[1] ? [m[1], m[2]] : [m[4], m[3]];
    const resolved = name?.startsWith('#') ? names[name] : name;
    if (resolved === hash && placeholder && values[placeholder] !== undefined) return partitionIdentity(table, values[placeholder], index);
  }
  return undefined;
}

/**
 * The item-level actions of request `body` of operation `op`; `schemaOf` gives a table's key schema
 * (undefined when unknown: that table's actions are left out).
 */
export function touchesOf(op: string, body: Record<string, unknown>, schemaOf: (table: string) => KeySchema | undefined): RequestTouches {
  const table = typeof body.TableName === 'string' ? body.TableName : '';
  const schema = table ? schemaOf(table) : undefined;
  const touches: Touch[] = [];
  switch (op) {
    case 'GetItem':
      if (schema && body.Key) touches.push(touchOf(table, schema, body.Key as WireItem));
      return { kind: 'read', touches };
    case 'PutItem':
      if (schema && body.Item) touches.push(touchOf(table, schema, body.Item as WireItem, body.Item as WireItem));
      return { kind: 'write', touches };
    case 'UpdateItem':
    case 'DeleteItem':
      if (schema && body.Key) touches.push(touchOf(table, schema, body.Key as WireItem));
      return { kind: 'write', touches };
    case 'Query': {
      const partition = schema ? queryPartition(body, table, schema) : undefined;
      if (partition) touches.push({ table, item: '', partition, indexPartitions: [], weight: 1 });
      return { kind: 'read', touches };
    }
    case 'BatchGetItem':
      for (const [t, r] of Object.entries((body.RequestItems ?? {}) as Record<string, { Keys?: WireItem[] }>)) {
        const s = schemaOf(t);
        // A key of an unknown table still holds its place (the proxy splits batches by position).
        for (const k of r.Keys ?? []) touches.push(s ? touchOf(t, s, k) : placeholder(t));
      }
      return { kind: 'read', touches };
    case 'BatchWriteItem':
      for (const [t, rs] of Object.entries((body.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: WireItem }; DeleteRequest?: { Key: WireItem } }>>)) {
        const s = schemaOf(t);
        for (const r of rs) {
          if (s && r.PutRequest?.Item) touches.push(touchOf(t, s, r.PutRequest.Item, r.PutRequest.Item));
          else if (s && r.DeleteRequest?.Key) touches.push(touchOf(t, s, r.DeleteRequest.Key));
          else touches.push(placeholder(t));
        }
      }
      return { kind: 'write', touches };
    case 'TransactWriteItems':
    case 'TransactGetItems':
      for (const action of (body.TransactItems ?? []) as Array<Record<string, { TableName?: string; Key?: WireItem; Item?: WireItem }>>) {
        const [kind, a] = Object.entries(action)[0] ?? [];
        const s = a?.TableName ? schemaOf(a.TableName) : undefined;
        const key = a?.Key ?? a?.Item;
        // An action of an unknown table still holds its place: cancellation reasons are one per action.
        touches.push(
          s && a?.TableName && key
            ? touchOf(a.TableName, s, key, kind === 'Put' ? a.Item : undefined)
            : placeholder(a?.TableName ?? ''),
        );
      }
      return { kind: op === 'TransactGetItems' ? 'read' : 'write', touches };
    default:
      return { kind: 'read', touches };
  }
}
