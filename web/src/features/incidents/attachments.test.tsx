/**
 * "Adjuntos" on the incident detail (docs/api.md#attachments) in jsdom: the list (name, type, size in KB/MB, who),
 * the empty state, the client-side refusal of a type off the contract's allow-list and of a file over 25 MiB
 * (no API call), and an upload: declared with the type of its extension, sent to the presigned POST's URL with
 * the fields first and the file last, then completed, and the list reloaded. The real S3 and the download:
 * test/e2e/internal-notes.e2e.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { anIncident, fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Attachment, IncidentDetail } from '../../shared/lib/contract';
import { ATTACHMENT_MAX_BYTES } from '../../shared/lib/contract';
import { IncidentDetailPage } from './IncidentDetailPage';
import { checkAttachmentFile, formatFileSize } from './attachments';

const DETAIL: IncidentDetail = { ...anIncident({ id: 'INC-000042', title: 'Intrusión', status: 'in_progress', version: 2 }), comments: [], history: [] };
const AT = '2026-11-29T06:00:00.000Z';
const att = (o: Partial<Attachment>): Attachment => ({
  attachmentId: 'att-0199a7c2-1b3d-7abc-8def-0123456789ab',
  tenantId: 'acme',
  incidentId: 'INC-000042',
  commentId: null,
  fileName: 'fw.log',
  contentType: 'text/plain',
  size: 2048,
  status: 'available',
  uploadedBy: 'ana@acme.test',
  uploadedBySub: 'u-ana',
  createdAt: AT,
  completedAt: AT,
  ...o,
});
const routes = (
  <Routes>
    <Route path="/ticket/update/:id" element={<IncidentDetailPage />} />
  </Routes>
);
const path = '/ticket/update/INC-000042?tenant=acme';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('incident attachments', () => {
  it('lists the files with type, size in KB/MB and who uploaded them; an incident without any says so', async () => {
    const items = [att({}), att({ attachmentId: 'att-0199a7c2-1b3d-7abc-8def-0123456789ac', fileName: 'captura.png', contentType: 'image/png', size: 3_355_443, status: 'available' })];
    const { unmount } = renderSignedIn(routes, { path, api: fakeApi({ getMe: ME_ACME, getIncident: DETAIL, listIncidentAttachments: { items, nextCursor: null } }) });
    const section = (await screen.findByRole('heading', { name: 'Adjuntos' })).closest('section')!;
    await within(section).findByText('fw.log');
    expect(within(section).getByText('2 KB')).toBeTruthy();
    expect(within(section).getByText('3,2 MB')).toBeTruthy();
    expect(within(section).getByText('image/png')).toBeTruthy();
    expect(within(section).getAllByText('ana@acme.test')).toHaveLength(2);
    expect(within(section).getByRole('button', { name: 'Descargar captura.png' })).toBeTruthy();
    unmount();
    renderSignedIn(routes, { path, api: fakeApi({ getMe: ME_ACME, getIncident: DETAIL, listIncidentAttachments: { items: [], nextCursor: null } }) });
    expect(await screen.findByText('Este incidente no tiene adjuntos.')).toBeTruthy();
  });

  it('refuses a type off the allow-list and a file over 25 MiB before asking the API', async () => {
    const api = fakeApi({ getMe: ME_ACME, getIncident: DETAIL, listIncidentAttachments: { items: [], nextCursor: null } });
    renderSignedIn(routes, { path, api });
    const input = await screen.findByLabelText('Adjuntar archivo');
    fireEvent.change(input, { target: { files: [new File(['<b>x</b>'], 'page.html', { type: 'text/html' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('Ese tipo de archivo no se admite');
    expect(checkAttachmentFile({ name: 'big.zip', type: 'application/zip', size: ATTACHMENT_MAX_BYTES + 1 })).toEqual({ problem: 'ATTACHMENT_TOO_LARGE' });
    expect(checkAttachmentFile({ name: 'mail.eml', type: '', size: 10 })).toEqual({ contentType: 'message/rfc822' });
    expect(formatFileSize(820)).toBe('820 B');
    expect(api.call.mock.calls.map((c) => c[0])).not.toContain('createIncidentAttachment');
  });

  it('uploads a .log: declared as text/plain, posted to S3 fields first and file last, completed, and listed', async () => {
    const sent: { url: string; keys: string[] }[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      private url = '';
      open(_m: string, url: string) {
        this.url = url;
      }
      send(form: FormData) {
        sent.push({ url: this.url, keys: [...form.keys()] });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
        this.status = 204;
        setTimeout(() => this.onload?.(), 0);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    let listed: Attachment[] = [];
    const created = att({ fileName: 'fw deny.log', status: 'pending', size: 11, completedAt: null });
    const api = fakeApi({
      getMe: ME_ACME,
      getIncident: DETAIL,
      listIncidentAttachments: () => ({ items: listed, nextCursor: null }),
      createIncidentAttachment: { attachment: created, upload: { url: 'https://s3.example/bucket', fields: { key: 'tenants/acme/x', 'Content-Type': 'text/plain', Policy: 'e30=', 'X-Amz-Signature': 'ab' }, expiresAt: AT } },
      completeIncidentAttachment: () => {
        listed = [{ ...created, status: 'available', completedAt: AT }];
        return listed[0]!;
      },
    });
    renderSignedIn(routes, { path, api });
    const input = await screen.findByLabelText('Adjuntar archivo');
    fireEvent.change(input, { target: { files: [new File(['deny 10.0.0'], 'fw deny.log', { type: '' })] } });
    expect((await screen.findByText('Archivo «fw deny.log» adjuntado.')).getAttribute('role')).toBe('status');
    expect(api.call).toHaveBeenCalledWith('createIncidentAttachment', { params: { id: 'INC-000042' }, body: { fileName: 'fw deny.log', contentType: 'text/plain', size: 11 }, query: { tenant: 'acme' } });
    expect(sent).toEqual([{ url: 'https://s3.example/bucket', keys: ['key', 'Content-Type', 'Policy', 'X-Amz-Signature', 'file'] }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Descargar fw deny.log' })).toBeTruthy());
  });
});
