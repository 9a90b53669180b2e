import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DataTable } from './lists';

interface Row {
  id: string;
  name: string;
  late: boolean;
}

const ROWS: Row[] = [
  { id: 'a', name: 'Uno', late: true },
  { id: 'b', name: 'Dos', late: false },
];

describe('DataTable', () => {
  it('renders the markup the list pages wrote by hand: hidden caption, th scope=col, data-label on every cell, per-row cell classes, a header for screen readers only', () => {
    const html = renderToStaticMarkup(
      <DataTable
        caption="Lista"
        rows={ROWS}
        rowKey={(r) => r.id}
        columns={[
          { label: 'Nombre', cell: (r) => <strong>{r.name}</strong> },
          { label: 'SLA', cell: (r) => (r.late ? 'vencido' : 'en plazo'), cellClass: (r) => (r.late ? 'sla-breached' : undefined) },
          { label: 'Acciones', hiddenLabel: true, cell: () => null },
        ]}
      />,
    );
    expect(html).toBe(
      [
        '<table class="data-table responsive"><caption class="visually-hidden">Lista</caption>',
        '<thead><tr><th scope="col">Nombre</th><th scope="col">SLA</th><th scope="col"><span class="visually-hidden">Acciones</span></th></tr></thead>',
        '<tbody>',
        '<tr><td data-label="Nombre"><strong>Uno</strong></td><td data-label="SLA" class="sla-breached">vencido</td><td data-label="Acciones"></td></tr>',
        '<tr><td data-label="Nombre"><strong>Dos</strong></td><td data-label="SLA">en plazo</td><td data-label="Acciones"></td></tr>',
        '</tbody></table>',
      ].join(''),
    );
  });

  it('is one table with its caption as accessible name and one row per item', () => {
    const { getByRole, getAllByRole } = render(<DataTable caption="Lista" rows={ROWS} rowKey={(r) => r.id} columns={[{ label: 'Nombre', cell: (r) => r.name }]} />);
    expect(getByRole('table', { name: 'Lista' })).toBeTruthy();
    expect(getAllByRole('row')).toHaveLength(3);
  });
});
