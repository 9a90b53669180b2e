/**
 * Field registries (docs/portal.md#field-registries): each entity's fields declared once — the label (message
 * key `fields.<entity>.<field>`, named by meaning), how a list cell and a details row show the value, and how the
 * CSV export writes it — and consumed by the list table, the CSV export and the details card alike, so a new
 * field is one entry here plus its label in both catalogues (the pattern of bulletproof-react's table
 * `columns`).
 */
import type { ReactNode } from 'react';
import type { CsvColumn } from './csv';
import type { DataColumn } from './lists';

/** One field of an entity `T`. Dates in CSV are ISO-8601 UTC strings, as the API sends them. */
export interface EntityField<T> {
  /** Stable identifier (React key, sort key, test id). */
  readonly key: string;
  /** The label in the current language (read at each call, so a language switch applies). */
  readonly label: () => string;
  /** How a list cell shows the value; absent = not a list column. */
  readonly cell?: (row: T) => ReactNode;
  /** A number, right-aligned in the list table (`num` class on its header and cells). */
  readonly numeric?: boolean;
  /** Extra class of the list cell (e.g. `text-danger` for a value below its target). */
  readonly cellClass?: string;
  /** How the details card shows the value; absent = not a details row. */
  readonly detail?: (row: T) => ReactNode;
  /** Whether the details row is shown for this row (default: always). */
  readonly showInDetail?: (row: T) => boolean;
  /** The CSV column (header defaults to the label); absent = not exported. */
  readonly csv?: { readonly header?: () => string; readonly value: (row: T) => string | number | null | undefined };
}

/** The CSV columns of a registry, in declaration order (headers in the current language). */
export function csvColumnsOf<T>(fields: readonly EntityField<T>[]): CsvColumn<T>[] {
  return fields.flatMap((f) =>
    f.csv
      ? [
          {
            get header() {
              return (f.csv!.header ?? f.label)();
            },
            value: f.csv.value,
          },
        ]
      : [],
  );
}

/** The list columns of a registry (fields with a `cell`), in declaration order. */
export function listFieldsOf<T>(fields: readonly EntityField<T>[]): EntityField<T>[] {
  return fields.filter((f) => f.cell);
}

/**
 * A `DataTable`'s columns for the list fields of a registry, in declaration order. Labels are read when this is
 * called: call it at render (or hold the result only where a language switch re-renders from scratch).
 */
export function dataColumnsOf<T>(fields: readonly EntityField<T>[]): DataColumn<T>[] {
  return listFieldsOf(fields).map((f) => {
    const cellClass = cellClassOf(f);
    const headerClass = headerClassOf(f);
    return { label: f.label(), cell: f.cell!, ...(cellClass ? { cellClass: () => cellClass } : {}), ...(headerClass ? { headerClass } : {}) };
  });
}

/** The details rows of a registry for `row`: fields with a `detail` whose `showInDetail` (if any) accepts `row`. */
export function detailFieldsOf<T>(fields: readonly EntityField<T>[], row: T): EntityField<T>[] {
  return fields.filter((f) => f.detail && (f.showInDetail?.(row) ?? true));
}

/** The fields named by `keys`, in that order: for a view that shows some fields in an order of its own (e.g. a details card). */
export function fieldsByKey<T>(fields: readonly EntityField<T>[], keys: readonly string[]): EntityField<T>[] {
  return keys.map((key) => {
    const field = fields.find((f) => f.key === key);
    if (!field) throw new Error(`no field ${key}`);
    return field;
  });
}

/** Class of a field's list header: `num` for numbers, else none. */
export function headerClassOf<T>(field: EntityField<T>): string | undefined {
  return field.numeric ? 'num' : undefined;
}

/** Class of a field's list cells: `num` for numbers, then its `cellClass`; none when neither. */
export function cellClassOf<T>(field: EntityField<T>): string | undefined {
  return [field.numeric ? 'num' : '', field.cellClass ?? ''].filter(Boolean).join(' ') || undefined;
}
