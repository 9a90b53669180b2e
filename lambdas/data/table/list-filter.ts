/**
 * A list filter declared once as data, from which both the DynamoDB FilterExpression (with its attribute
 * names and values) and the in-memory predicate are derived, so a Query that filters on the server and a
 * read that filters what it fetched (a BatchGetItem, a GetItem) apply the same rule (issue 30 point 3).
 *
 * A filter is a list of clauses, AND-combined; a clause with no value (`undefined`, `[]`, `''`) filters
 * nothing. Operators, with DynamoDB's semantics (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html):
 *  - `in`: the attribute equals one of `values` (`#a IN (:v0, …)`; DynamoDB allows ≤ 100 operands);
 *  - `eq`: the attribute equals `value` (`#a = :v`);
 *  - `contains`: the string attribute contains `value` as a substring, or the list/set attribute has it as an
 *    element (`contains(#a, :v)`).
 * A missing attribute matches none of them. Attribute names are always placeholders (`#f<n>` for clause n,
 * `#c` for a `contains`), so any name — a reserved word such as `status`, or one with `.`/`#`/`-` — is safe.
 */
import type { AttributeMap } from './client.js';

/** One condition of a filter (see the module doc); `values`/`value` undefined or empty = no condition. */
export type FilterClause =
  | { attribute: string; op: 'in'; values: readonly string[] | undefined }
  | { attribute: string; op: 'eq'; value: string | undefined }
  | { attribute: string; op: 'contains'; value: string | undefined };

/** A FilterExpression with its ExpressionAttributeNames and ExpressionAttributeValues. */
export interface FilterExpressionParts {
  expression: string;
  names: Record<string, string>;
  values: AttributeMap;
}

/** A filter built by `listFilter`: its clauses and the two views derived from them. */
export interface ListFilterSpec {
  readonly clauses: readonly FilterClause[];
  /** True when no clause filters anything (`toExpression()` is then undefined and `matches` always true). */
  readonly empty: boolean;
  /** The FilterExpression of the clauses that filter, or undefined when none does. */
  toExpression(): FilterExpressionParts | undefined;
  /** Whether `item` (a stored item or an API object with the same attribute names) passes every clause. */
  matches(item: object): boolean;
}

/** The values a clause compares with; [] when it filters nothing. */
function operands(c: FilterClause): readonly string[] {
  if (c.op === 'in') return c.values ?? [];
  return c.value === undefined || c.value === '' ? [] : [c.value];
}

/** Whether `v` passes clause `c` (which filters: `operands(c)` is not empty). */
function passes(c: FilterClause, v: unknown): boolean {
  const ops = operands(c);
  if (c.op !== 'contains') return typeof v === 'string' && ops.includes(v);
  if (typeof v === 'string') return v.includes(ops[0]!);
  if (Array.isArray(v)) return v.includes(ops[0]);
  if (v instanceof Set) return v.has(ops[0]);
  return false;
}

/**
 * The filter of `clauses` (AND-combined; see the module doc). Placeholders are positional — clause n's name is
 * `#f<n>` and its values `:f<n>_<i>` (`in`) or `:f<n>` (`eq`), a `contains` uses `#c`/`:c` (one per filter) —
 * so a clause that filters nothing still holds its position and the expression of the others does not change.
 * @throws Error for more than one `contains` clause (they would share `#c`).
 */
export function listFilter(clauses: readonly FilterClause[]): ListFilterSpec {
  if (clauses.filter((c) => c.op === 'contains').length > 1) throw new Error('listFilter: at most one contains clause');
  const active = clauses.map((c, n) => ({ c, n })).filter(({ c }) => operands(c).length > 0);
  return {
    clauses,
    empty: active.length === 0,
    toExpression() {
      if (active.length === 0) return undefined;
      const names: Record<string, string> = {};
      const values: AttributeMap = {};
      const parts = active.map(({ c, n }) => {
        const ops = operands(c);
        if (c.op === 'contains') {
          names['#c'] = c.attribute;
          values[':c'] = ops[0]!;
          return 'contains(#c, :c)';
        }
        names[`#f${n}`] = c.attribute;
        if (c.op === 'eq') {
          values[`:f${n}`] = ops[0]!;
          return `#f${n} = :f${n}`;
        }
        return `#f${n} IN (${ops.map((x, i) => ((values[`:f${n}_${i}`] = x), `:f${n}_${i}`)).join(', ')})`;
      });
      return { expression: parts.join(' AND '), names, values };
    },
    matches(item) {
      return active.every(({ c }) => passes(c, (item as Record<string, unknown>)[c.attribute]));
    },
  };
}
