/** One webhook of the list: what it receives, "Enviar prueba" (the receiver's answer), "Eliminar" (asks first), its deliveries. */
import { useId, useRef, useState } from 'react';
import type { WebhookTestResult, WebhookView } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime } from '../../shared/lib/format';
import { WEBHOOK_FORMAT_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import '../../shared/ui/screens.css';
import { receivesText, useWebhookActions, sendErrorText } from './notification-settings';
import './notification-settings.css';
import { Deliveries } from './Deliveries';


function testMessage(w: WebhookView, r: WebhookTestResult): string {
  if (r.ok) return msg('notifications.webhooks.testOk', { name: w.name, status: r.status ?? '' });
  const reason = (r.error !== null ? sendErrorText(r.error) : null) ?? (r.status !== null ? msg('notifications.webhooks.testStatusReason', { status: r.status }) : msg('notifications.webhooks.testNoStatus'));
  return msg('notifications.webhooks.testFailed', { name: w.name, reason });
}

export function WebhookItem({ webhook: w, onStatus }: { webhook: WebhookView; onStatus: (s: string) => void }) {
  const actions = useWebhookActions();
  const id = useId();
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<'test' | 'delete' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState('');
  const [showDeliveries, setShowDeliveries] = useState(false);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const sendTest = async () => {
    setBusy('test');
    setTest(null);
    try {
      const r = await actions.test(w.id);
      setTest({ ok: r.ok, text: testMessage(w, r) });
    } catch (err) {
      setTest({ ok: false, text: msg('notifications.webhooks.testCouldNot', { message: toApiError(err).userMessage }) });
    } finally {
      setBusy(null);
    }
  };
  const remove = async () => {
    setBusy('delete');
    setDeleteError('');
    try {
      await actions.remove(w.id);
      onStatus(msg('notifications.webhooks.deleted', { name: w.name }));
    } catch (err) {
      setDeleteError(msg('notifications.webhooks.couldNotDelete', { message: toApiError(err).userMessage }));
      setBusy(null);
    }
  };

  return (
    <li className="webhook-item">
      <article aria-labelledby={`${id}-name`}>
        <h3 id={`${id}-name`}>{w.name}</h3>
        <dl className="webhook-facts">
          <div>
            <dt>{msg('notifications.webhooks.format')}</dt>
            <dd>{WEBHOOK_FORMAT_LABELS[w.kind]}{w.signed ? ` · ${msg('notifications.webhooks.signed')}` : ''}</dd>
          </div>
          <div>
            <dt>{msg('notifications.webhooks.url')}</dt>
            <dd>
              <code className="webhook-url">{w.urlPreview}</code>
            </dd>
          </div>
          <div>
            <dt>{msg('notifications.webhooks.receives')}</dt>
            <dd>{receivesText(w)}</dd>
          </div>
          <div>
            <dt>{msg('notifications.webhooks.created')}</dt>
            <dd>{msg('notifications.webhooks.createdBy', { when: formatDateTime(w.createdAt), who: w.createdBy })}</dd>
          </div>
        </dl>
        <div className="form-actions">
          <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => void sendTest()}>
            {busy === 'test' ? msg('actions.sending') : msg('notifications.webhooks.sendTest')}
          </button>
          <button type="button" className="btn" aria-expanded={showDeliveries} aria-controls={`${id}-deliveries`} onClick={() => setShowDeliveries((v) => !v)}>
            {showDeliveries ? msg('notifications.webhooks.hideDeliveries') : msg('notifications.webhooks.showDeliveries')}
          </button>
          {!confirming && (
            <button
              ref={deleteRef}
              type="button"
              className="btn"
              disabled={busy !== null}
              onClick={() => {
                setConfirming(true);
                setTimeout(() => cancelRef.current?.focus(), 0);
              }}
            >
              {msg('actions.delete')}
            </button>
          )}
        </div>
        <p role="status" className={test ? (test.ok ? 'test-result test-ok' : 'test-result test-failed') : 'test-result'}>
          {test?.text ?? ''}
        </p>
        {confirming && (
          <div className="confirm-inline" role="group" aria-labelledby={`${id}-confirm`}>
            <p id={`${id}-confirm`}>{msg('notifications.webhooks.confirmDelete', { name: w.name })}</p>
            <div className="form-actions">
              <button
                ref={cancelRef}
                type="button"
                className="btn"
                onClick={() => {
                  setConfirming(false);
                  setTimeout(() => deleteRef.current?.focus(), 0);
                }}
              >
                {msg('actions.cancel')}
              </button>
              <button type="button" className="btn btn-danger" disabled={busy !== null} onClick={() => void remove()}>
                {msg('notifications.webhooks.confirmDeleteYes')}
              </button>
            </div>
            {deleteError && (
              <p className="field-error" role="alert">
                {deleteError}
              </p>
            )}
          </div>
        )}
        <div id={`${id}-deliveries`} hidden={!showDeliveries}>
          {showDeliveries && <Deliveries webhook={w} />}
        </div>
      </article>
    </li>
  );
}
