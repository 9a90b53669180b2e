/**
 * `/notifications/webhooks` "Webhooks" (docs/notifications.md#portal-screens): the active tenant's webhooks
 * (customers: their tenant; staff: the tenant picked in the header) — name, masked URL, format (Microsoft
 * Teams, Slack, JSON firmado), what each receives; "Enviar prueba" shows the receiver's answer; "Eliminar"
 * asks first; "Ver últimas entregas" lists the last 20 deliveries (time, event, result, HTTP status,
 * attempts). The form adds one; a JSON webhook's signing secret is shown this once, with "Copiar" and a
 * warning. Field errors of the API show under their fields.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { WEBHOOK_FORMATS, type ActivityKind, type ActivitySeverity, type WebhookTestResult, type WebhookView } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { useTenant } from '../../shared/lib/tenant';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { describedBy, FieldNotes, MinSeveritySelect } from './fields';
import { KindsPicker, kindsValue, tickedKinds } from './KindsPicker';
import { fieldErrorsOf, kindLabel, receivesText, useWebhookActions, useWebhookDeliveries, useWebhooks, type FieldErrors } from './notification-settings';
import './notification-settings.css';

type Format = (typeof WEBHOOK_FORMATS)[number];

export function WebhooksPage() {
  const { tenants, activeTenant } = useTenant();
  const list = useWebhooks();
  const [created, setCreated] = useState<{ webhook: WebhookView; secret: string | null } | null>(null);
  const [status, setStatus] = useState('');
  const tenantName = tenants.find((t) => t.id === activeTenant)?.name ?? activeTenant ?? '';
  return (
    <section className="notification-settings">
      <PageHeader title={msg('notifications.webhooks.title')}>
        <Link to="/notifications/preferences" className="btn">
          {msg('notifications.links.preferences')}
        </Link>
      </PageHeader>
      <p>{msg('notifications.webhooks.intro', { tenant: tenantName })}</p>
      <p role="status" className="save-status">
        {status}
      </p>
      {created && <CreatedNotice created={created} onDone={() => setCreated(null)} />}
      <section className="card" aria-labelledby="webhooks-list-title">
        <h2 id="webhooks-list-title">{msg('notifications.webhooks.listTitle')}</h2>
        {list.error && !list.data ? (
          <ErrorState error={list.error} onRetry={() => void list.mutate()} />
        ) : !list.data ? (
          <LoadingState rows={2} />
        ) : list.data.items.length === 0 ? (
          <EmptyState>{msg('notifications.webhooks.empty')}</EmptyState>
        ) : (
          <ul className="webhook-list">
            {list.data.items.map((w) => (
              <WebhookItem key={w.id} webhook={w} onStatus={setStatus} />
            ))}
          </ul>
        )}
      </section>
      <AddWebhookForm
        key={activeTenant}
        onCreated={(c) => {
          setCreated(c);
          setStatus(msg('notifications.webhooks.added', { name: c.webhook.name }));
        }}
      />
    </section>
  );
}

/** The new webhook's notice; for JSON its signing secret, shown this once, with "Copiar". */
function CreatedNotice({ created, onDone }: { created: { webhook: WebhookView; secret: string | null }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The secret is shown this once: take the focus there so keyboard and screen-reader users land on it.
  useEffect(() => titleRef.current?.focus(), [created]);
  if (!created.secret) return null;
  const secret = created.secret;
  return (
    <section className="card secret-card" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title" ref={titleRef} tabIndex={-1}>
        {msg('notifications.webhooks.secretTitle')}
      </h2>
      <p className="secret-warning" id="webhook-secret-warning">
        {msg('notifications.webhooks.secretWarning')}
      </p>
      <p className="secret-row">
        <code data-testid="webhook-secret" aria-describedby="webhook-secret-warning">
          {secret}
        </code>
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? msg('notifications.webhooks.copied') : msg('notifications.webhooks.copy')}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          {msg('notifications.webhooks.secretDone')}
        </button>
      </div>
    </section>
  );
}

/** A webhook send error as the user reads it: the API's `WEBHOOK_UNREACHABLE` code in words (docs/notifications.md#webhook-url-policy). */
const sendErrorText = (error: string): string => (error === 'WEBHOOK_UNREACHABLE' ? msg('notifications.webhooks.unreachable') : error);

function testMessage(w: WebhookView, r: WebhookTestResult): string {
  if (r.ok) return msg('notifications.webhooks.testOk', { name: w.name, status: r.status ?? '' });
  const reason = (r.error !== null ? sendErrorText(r.error) : null) ?? (r.status !== null ? msg('notifications.webhooks.testStatusReason', { status: r.status }) : msg('notifications.webhooks.testNoStatus'));
  return msg('notifications.webhooks.testFailed', { name: w.name, reason });
}

function WebhookItem({ webhook: w, onStatus }: { webhook: WebhookView; onStatus: (s: string) => void }) {
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
            <dd>{msg(`notifications.webhooks.formats.${w.kind}`)}{w.signed ? ` · ${msg('notifications.webhooks.signed')}` : ''}</dd>
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
            {busy === 'test' ? msg('notifications.webhooks.sendingTest') : msg('notifications.webhooks.sendTest')}
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
              {msg('notifications.webhooks.delete')}
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
                {msg('notifications.webhooks.cancel')}
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

function Deliveries({ webhook: w }: { webhook: WebhookView }) {
  const d = useWebhookDeliveries(w.id);
  const id = useId();
  if (d.error && !d.data) return <ErrorState error={d.error} onRetry={() => void d.mutate()} />;
  if (!d.data) return <LoadingState rows={2} />;
  return (
    <div className="deliveries">
      <div className="form-actions">
        <button type="button" className="btn btn-small" onClick={() => void d.mutate()}>
          {msg('notifications.webhooks.refreshDeliveries')}
        </button>
      </div>
      {d.data.items.length === 0 ? (
        <EmptyState>{msg('notifications.webhooks.deliveriesEmpty')}</EmptyState>
      ) : (
        // A heading rather than a <caption>: the phone layout turns the table into blocks, where a caption is squeezed.
        <>
          <h4 id={`${id}-title`} className="deliveries-title">
            {msg('notifications.webhooks.deliveriesCaption', { name: w.name })}
          </h4>
          <table className="data-table responsive" aria-labelledby={`${id}-title`}>
            <thead>
              <tr>
                <th scope="col">{msg('notifications.webhooks.when')}</th>
                <th scope="col">{msg('notifications.webhooks.event')}</th>
                <th scope="col">{msg('notifications.webhooks.result')}</th>
                <th scope="col">{msg('notifications.webhooks.httpStatus')}</th>
                <th scope="col">{msg('notifications.webhooks.attempts')}</th>
              </tr>
            </thead>
            <tbody>
              {d.data.items.map((x) => (
                <tr key={x.deliveryId}>
                  <td data-label={msg('notifications.webhooks.when')}>
                    <time dateTime={x.sentAt ?? x.updatedAt}>{formatDateTime(x.sentAt ?? x.updatedAt)}</time>
                  </td>
                  <td data-label={msg('notifications.webhooks.event')}>
                    <span className="delivery-event">
                      <span className="muted small">{kindLabel(x.kind)}</span>
                      <span>{x.title}</span>
                    </span>
                  </td>
                  <td data-label={msg('notifications.webhooks.result')}>
                    <span className="delivery-event">
                      <strong className={`delivery-${x.state}`}>{msg(`notifications.webhooks.states.${x.state}`)}</strong>
                      {x.lastError && x.state !== 'sent' && <span className="muted small">{sendErrorText(x.lastError)}</span>}
                      {x.nextAttemptAt && <span className="muted small">{msg('notifications.webhooks.nextAttempt', { when: formatDateTime(x.nextAttemptAt) })}</span>}
                    </span>
                  </td>
                  <td data-label={msg('notifications.webhooks.httpStatus')}>{x.lastStatus ?? '—'}</td>
                  <td data-label={msg('notifications.webhooks.attempts')}>{x.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

const ADD_FIELDS = ['name', 'kind', 'url', 'minSeverity', 'kinds'] as const;

function AddWebhookForm({ onCreated }: { onCreated: (c: { webhook: WebhookView; secret: string | null }) => void }) {
  const actions = useWebhookActions();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Format>('teams');
  const [url, setUrl] = useState('');
  const [minSeverity, setMinSeverity] = useState<ActivitySeverity>('high');
  const [kinds, setKinds] = useState<Set<ActivityKind>>(() => tickedKinds(null));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = msg('notifications.webhooks.nameRequired');
    if (!url.trim()) local.url = msg('notifications.webhooks.urlRequired');
    if (kinds.size === 0) local.kinds = msg('notifications.kindsPicker.noneChosen');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const created = await actions.create({ name: name.trim(), kind, url: url.trim(), minSeverity, kinds: kindsValue(kinds) });
      setName('');
      setUrl('');
      onCreated(created);
    } catch (err) {
      setErrors(fieldErrorsOf(err, ADD_FIELDS, (message) => msg('notifications.webhooks.couldNotAdd', { message })));
    } finally {
      setBusy(false);
    }
  };
  const described = (field: string, hint: boolean) => describedBy(`wh-${field}`, hint, errors[field]);

  return (
    <form className="card form" noValidate aria-labelledby="webhook-add-title" onSubmit={(e) => void onSubmit(e)}>
      <h2 id="webhook-add-title">{msg('notifications.webhooks.addTitle')}</h2>
      <div className="field-row">
        <div className="field">
          <label htmlFor="wh-name">{msg('notifications.webhooks.name')}</label>
          <input id="wh-name" maxLength={80} value={name} aria-invalid={errors.name ? true : undefined} aria-describedby={described('name', true)} onChange={(e) => setName(e.target.value)} />
          <FieldNotes id="wh-name" hint={msg('notifications.webhooks.nameHint')} error={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="wh-kind">{msg('notifications.webhooks.format')}</label>
          <select id="wh-kind" value={kind} aria-describedby={described('kind', false)} onChange={(e) => setKind(e.target.value as Format)}>
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {msg(`notifications.webhooks.formats.${f}`)}
              </option>
            ))}
          </select>
          <FieldNotes id="wh-kind" error={errors.kind} />
        </div>
      </div>
      <div className="field">
        <label htmlFor="wh-url">{msg('notifications.webhooks.url')}</label>
        <input id="wh-url" type="url" inputMode="url" autoComplete="off" spellCheck={false} maxLength={2048} value={url} aria-invalid={errors.url ? true : undefined} aria-describedby={described('url', true)} onChange={(e) => setUrl(e.target.value)} />
        <FieldNotes id="wh-url" hint={msg('notifications.webhooks.urlHint')} error={errors.url} />
      </div>
      <MinSeveritySelect id="wh-severity" value={minSeverity} onChange={setMinSeverity} error={errors.minSeverity} />
      <KindsPicker id="wh-kinds" ticked={kinds} onChange={setKinds} error={errors.kinds} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? msg('notifications.webhooks.adding') : msg('notifications.webhooks.add')}
        </button>
      </div>
    </form>
  );
}
