/**
 * The audit log's "CSV (Excel)" (docs/portal.md#csv-downloads): the API's standard CSV rewritten in the
 * browser in Spanish Excel's dialect — UTF-8 BOM, `;` between fields, decimal comma — beside the unchanged
 * standard file.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import { AuditLogPage } from './AuditLogPage';

const SERVER_CSV = 'at,actor,action,after\r\n2026-03-01T10:00:00.000Z,"soc; turno",alarm.acknowledge,95.5\r\n';

async function downloaded(name: string): Promise<{ filename: string; bytes: Uint8Array }> {
  const blobs: Blob[] = [];
  Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => (blobs.push(b), 'blob:x')), revokeObjectURL: vi.fn() });
  let filename = '';
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    filename = this.download;
  });
  fireEvent.click(screen.getByRole('button', { name }));
  await waitFor(() => expect(blobs).toHaveLength(1));
  click.mockRestore();
  const buf = await new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blobs[0]!);
  });
  return { filename, bytes: new Uint8Array(buf) };
}

afterEach(() => {
  document.documentElement.lang = '';
  vi.restoreAllMocks();
});

describe('audit log CSV for Excel', () => {
  it('offers the standard file and the Spanish Excel one, byte for byte', async () => {
    document.documentElement.lang = 'es';
    const api = fakeApi({ getMe: ME_ACME, listAuditLog: { items: [], nextCursor: null } });
    api.csv.mockResolvedValue(SERVER_CSV);
    renderSignedIn(
      <Routes>
        <Route path="/audit" element={<AuditLogPage />} />
      </Routes>,
      { path: '/audit', api },
    );
    await screen.findByText(/No hay registros/);
    const bom = [0xef, 0xbb, 0xbf];

    const excel = await downloaded('CSV (Excel)');
    expect(excel.filename).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}-excel\.csv$/);
    expect([...excel.bytes]).toEqual([...bom, ...new TextEncoder().encode('at;actor;action;after\r\n2026-03-01T10:00:00.000Z;"soc; turno";alarm.acknowledge;95,5\r\n')]);

    const standard = await downloaded('Exportar CSV');
    expect(standard.filename).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...standard.bytes]).toEqual([...bom, ...new TextEncoder().encode(SERVER_CSV)]);
  });
});
