/**
 * The list filter kit (lambdas/data/table/list-filter.ts): the FilterExpression and the in-memory predicate
 * derived from one declaration agree (checked by evaluating the expression on random items), an empty filter
 * is no filter, and attribute names are always placeholders.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFilter, type FilterClause, type FilterExpressionParts } from '../../../lambdas/data/table/list-filter.js';
import { incidentListFilter } from '../../../lambdas/data/incident-search.js';

/** Evaluates a FilterExpression of the shapes listFilter writes (`#a IN (…)`, `#a = :v`, `contains(#a, :v)`, AND) on `item`, as DynamoDB does. */
function evaluate(e: FilterExpressionParts, item: Record<string, unknown>): boolean {
  return e.expression.split(' AND ').every((part) => {
    const contains = /^contains\((#\w+), (:\w+)\)$/.exec(part);
    if (contains) {
      const v = item[e.names[contains[1]!]!];
      const x = e.values[contains[2]!] as string;
      return typeof v === 'string' ? v.includes(x) : Array.isArray(v) ? v.includes(x) : false;
    }
    const inOp = /^(#\w+) IN \((.*)\)$/.exec(part);
    const eq = /^(#\w+) = (:\w+)$/.exec(part);
    const m = inOp ?? eq;
    if (!m) throw new Error(`unexpected expression part ${part}`);
    const v = item[e.names[m[1]!]!];
    return m[2]!.split(', ').some((p) => e.values[p] === v);
  });
}

const attrs = ['status', 'severity', 'tenant-id', 'a.b', 'name'] as const;
const word = fc.constantFrom('new', 'closed', 'high', 'low', 'acme', 'vpn', 'acme vpn', '');
const clause: fc.Arbitrary<FilterClause> = fc.oneof(
  fc.record({ attribute: fc.constantFrom(...attrs), op: fc.constant('in' as const), values: fc.option(fc.array(word, { maxLength: 3 }), { nil: undefined }) }),
  fc.record({ attribute: fc.constantFrom(...attrs), op: fc.constant('eq' as const), value: fc.option(word, { nil: undefined }) }),
);
const containsClause: fc.Arbitrary<FilterClause> = fc.record({ attribute: fc.constantFrom(...attrs), op: fc.constant('contains' as const), value: fc.option(word, { nil: undefined }) });
const item = fc.dictionary(fc.constantFrom(...attrs), fc.oneof(word, fc.integer(), fc.array(word, { maxLength: 2 })), { maxKeys: 5 });

describe('listFilter', () => {
  it('expression and predicate agree on random filters and items', () => {
    fc.assert(
      fc.property(fc.array(clause, { maxLength: 4 }), fc.option(containsClause, { nil: undefined }), item, (clauses, c, it) => {
        const f = listFilter(c ? [...clauses, c] : clauses);
        const e = f.toExpression();
        expect(e === undefined).toBe(f.empty);
        expect(f.matches(it)).toBe(e ? evaluate(e, it) : true);
      }),
      { numRuns: 500 },
    );
  });

  it('an empty filter (no clause, or clauses without values) is no filter', () => {
    for (const f of [listFilter([]), listFilter([{ attribute: 'status', op: 'in', values: [] }, { attribute: 'x', op: 'in', values: undefined }, { attribute: 'y', op: 'eq', value: '' }, { attribute: 'z', op: 'contains', value: undefined }])]) {
      expect(f.empty).toBe(true);
      expect(f.toExpression()).toBeUndefined();
      expect(f.matches({})).toBe(true);
      expect(f.matches({ status: 'closed' })).toBe(true);
    }
  });

  it('names every attribute by a placeholder (reserved words, dots, dashes) and keeps positions', () => {
    const f = listFilter([
      { attribute: 'status', op: 'in', values: ['new', 'closed'] },
      { attribute: 'unused', op: 'in', values: [] },
      { attribute: 'a.b', op: 'eq', value: 'x' },
      { attribute: 'tenant-id', op: 'contains', value: 'ac' },
    ]);
    expect(f.toExpression()).toEqual({
      expression: '#f0 IN (:f0_0, :f0_1) AND #f2 = :f2 AND contains(#c, :c)',
      names: { '#f0': 'status', '#f2': 'a.b', '#c': 'tenant-id' },
      values: { ':f0_0': 'new', ':f0_1': 'closed', ':f2': 'x', ':c': 'ac' },
    });
    expect(f.matches({ status: 'new', 'a.b': 'x', 'tenant-id': 'acme' })).toBe(true);
    // `a.b` is the attribute of that name, not a path.
    expect(f.matches({ status: 'new', a: { b: 'x' }, 'tenant-id': 'acme' })).toBe(false);
    expect(f.matches({ 'a.b': 'x', 'tenant-id': 'acme' })).toBe(false);
  });

  it('refuses two contains clauses (they would share #c)', () => {
    expect(() => listFilter([{ attribute: 'a', op: 'contains', value: 'x' }, { attribute: 'b', op: 'contains', value: 'y' }])).toThrow(/contains/);
  });
});

describe('incidentListFilter', () => {
  it('declares tenant, severity, status in that order (the SOC queue expression is unchanged)', () => {
    expect(incidentListFilter({ tenantId: 'acme', severity: ['high'], status: ['new', 'in_progress'] }).toExpression()).toEqual({
      expression: '#f0 IN (:f0_0) AND #f1 IN (:f1_0) AND #f2 IN (:f2_0, :f2_1)',
      names: { '#f0': 'tenantId', '#f1': 'severity', '#f2': 'status' },
      values: { ':f0_0': 'acme', ':f1_0': 'high', ':f2_0': 'new', ':f2_1': 'in_progress' },
    });
    const f = incidentListFilter({ severity: ['high', 'critical'], status: ['new'] });
    expect(f.matches({ tenantId: 'x', severity: 'high', status: 'new' })).toBe(true);
    expect(f.matches({ tenantId: 'x', severity: 'low', status: 'new' })).toBe(false);
    expect(f.matches({ tenantId: 'x', severity: 'high', status: 'closed' })).toBe(false);
    expect(incidentListFilter({}).empty).toBe(true);
  });
});
