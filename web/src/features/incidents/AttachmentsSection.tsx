/**
 * The incident detail's "Adjuntos" (docs/api.md#attachments): the evidence files of
 * the incident — name, type, size (KB/MB), who uploaded it and when — oldest first with "Cargar más"; a download
 * button on each available file; an empty state; and, for operators and admins (staff included), the upload
 * control. Pending uploads (declared but never confirmed) are listed as such, without a download.
 */
import { useState } from 'react';
import { canOperate, useTenant } from '../../shared/lib/tenant';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { DataTable, LoadMore } from '../../shared/ui/lists';
import { ErrorState } from '../../shared/ui/states';
import { formatFileSize, useAttachmentList } from './attachments';
import { AttachmentDownloadButton } from './AttachmentDownloadButton';
import { AttachmentUploadButton } from './AttachmentUploadButton';
import './attachments.css';

export function AttachmentsSection({ incidentId, tenantId }: { incidentId: string; tenantId: string }) {
  const { me } = useTenant();
  const list = useAttachmentList(incidentId, tenantId);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section className="card attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">{msg('incidents.attachments.title')}</h2>
      {canOperate(me) ? (
        <AttachmentUploadButton
          incidentId={incidentId}
          tenantId={tenantId}
          onStart={() => setNotice(null)}
          onUploaded={(name) => {
            setNotice(msg('incidents.attachments.uploaded', { name }));
            void list.mutate();
          }}
        />
      ) : null}
      {notice && (
        <p className="notice-ok" role="status">
          {notice}
        </p>
      )}
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : !list.data ? (
        <p className="muted">{msg('incidents.attachments.loading')}</p>
      ) : list.items.length === 0 ? (
        <p className="muted">{msg('incidents.attachments.empty')}</p>
      ) : (
        <>
          <DataTable
            caption={msg('incidents.attachments.caption')}
            rows={list.items}
            rowKey={(a) => a.attachmentId}
            columns={[
              { label: msg('incidents.attachments.name'), cell: (a) => <span className="attachment-name">{a.fileName}</span> },
              { label: msg('incidents.attachments.type'), cell: (a) => a.contentType },
              { label: msg('incidents.attachments.size'), cell: (a) => formatFileSize(a.size) },
              { label: msg('incidents.attachments.by'), cell: (a) => a.uploadedBy },
              { label: msg('incidents.attachments.at'), cell: (a) => formatDateTime(a.completedAt ?? a.createdAt) },
              {
                label: msg('incidents.attachments.download'),
                hiddenLabel: true,
                cell: (a) =>
                  a.status === 'available' ? (
                    <AttachmentDownloadButton incidentId={incidentId} tenantId={tenantId} attachment={a} />
                  ) : (
                    <span className="muted">{msg('incidents.attachments.pending')}</span>
                  ),
              },
            ]}
          />
          <LoadMore list={list} />
        </>
      )}
    </section>
  );
}
