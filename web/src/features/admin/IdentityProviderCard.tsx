/**
 * "Proveedor de identidad de la empresa" on the tenant administration screen (docs/portal.md#administration;
 * API: docs/api.md#tenant-identity-provider): the tenant's enterprise provider over OIDC (issuer, client id, client
 * secret, scopes) or SAML (metadata URL) and the e-mail domains routed to it.
 *
 * - State: configurado / no configurado, whether a client secret is stored (the API never returns it), whether the
 *   portal's app client lists the provider, and what staff register at the customer's provider (the redirect / ACS
 *   URL and the SAML entity id).
 * - Save (PUT) checks the form first (https address, domains, client id, the secret the first time, `openid` among
 *   the scopes) with the API's own rules, then shows the API's answer: field errors under their field
 *   (VALIDATION_FAILED details), IDP_DOMAIN_IN_USE naming the domains, FEDERATION_UNAVAILABLE, or the generic message
 *   with the request reference. The secret field is emptied after a save (it is write-only).
 * - Remove (DELETE) asks first in the screen's confirmation dialog.
 * - On a stage without staff-configured providers (`available: false`) the card says so and shows no form.
 */
import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { formErrorsOf, topLevelField } from '../../shared/lib/form-errors';
import type { PutTenantIdentityProviderBody, TenantIdentityProviderState } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { useAdminActions, useTenantIdentityProvider } from './api';
import { useConfirm } from '../../shared/ui/ConfirmDialog';
import { FormActions } from '../../shared/ui/FormActions';

type Kind = 'oidc' | 'saml';
type FieldName = 'issuerUrl' | 'clientId' | 'clientSecret' | 'scopes' | 'metadataUrl' | 'emailDomains';
type Errors = Partial<Record<FieldName | 'form', string>>;
type Notice = { tone: 'ok' | 'error'; text: string } | null;

const DOMAIN_RE = /^(?=.{3,40}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The domains typed in the field: split on commas, spaces and new lines, lower-cased, empty ones dropped. */
export function parseDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
}

interface Draft {
  type: Kind;
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  metadataUrl: string;
  domains: string;
}

function draftOf(state: TenantIdentityProviderState | undefined): Draft {
  const p = state?.provider;
  return {
    type: p?.type ?? 'oidc',
    issuerUrl: p?.issuerUrl ?? '',
    clientId: p?.clientId ?? '',
    clientSecret: '',
    scopes: (p?.scopes ?? ['openid', 'email', 'profile']).join(' '),
    metadataUrl: p?.metadataUrl ?? '',
    domains: (p?.emailDomains ?? []).join('\n'),
  };
}

/** The request body of a draft, or the errors that keep it from being sent (the API's rules, in the portal's language). */
export function bodyOf(d: Draft, secretStored: boolean): { body: PutTenantIdentityProviderBody } | { errors: Errors } {
  const errors: Errors = {};
  const domains = parseDomains(d.domains);
  const bad = domains.find((x) => !DOMAIN_RE.test(x));
  if (domains.length === 0) errors.emailDomains = msg('admin.identityProvider.needDomains');
  else if (bad) errors.emailDomains = msg('admin.identityProvider.badDomain', { domain: bad });
  // As the API's schema: https, or http on a loopback host (the local identity provider; only the local stage accepts it).
  const https = (u: string) => /^https:\/\/[^\s/]+/.test(u.trim()) || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(u.trim());
  if (d.type === 'saml') {
    if (!https(d.metadataUrl)) errors.metadataUrl = msg('admin.identityProvider.needHttps');
    if (Object.keys(errors).length) return { errors };
    return { body: { type: 'saml', metadataUrl: d.metadataUrl.trim(), emailDomains: domains } };
  }
  if (!https(d.issuerUrl)) errors.issuerUrl = msg('admin.identityProvider.needHttps');
  if (!d.clientId.trim()) errors.clientId = msg('admin.identityProvider.needClientId');
  if (!d.clientSecret && !secretStored) errors.clientSecret = msg('admin.identityProvider.needSecret');
  const scopes = d.scopes.split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid')) errors.scopes = msg('admin.identityProvider.needOpenid');
  if (Object.keys(errors).length) return { errors };
  return {
    body: { type: 'oidc', issuerUrl: d.issuerUrl.trim(), clientId: d.clientId.trim(), ...(d.clientSecret ? { clientSecret: d.clientSecret } : {}), scopes, emailDomains: domains },
  };
}

const FIELDS: readonly FieldName[] = ['issuerUrl', 'clientId', 'clientSecret', 'scopes', 'metadataUrl', 'emailDomains'];

/**
 * The API's refusal as field errors (VALIDATION_FAILED `details[].path` = `body.<field>[.<i>]`), a domain
 * already routed elsewhere under the domains, federation off as the form error; else one form error with the
 * request id (`formErrorsOf`).
 */
function errorsOfApi(err: unknown): Errors {
  return formErrorsOf(err, {
    fieldOf: topLevelField(FIELDS),
    formText: (message, id) => (id ? msg('admin.pages.errorWithReference', { message, id }) : message),
    byCode: {
      IDP_DOMAIN_IN_USE: (e) => ({ emailDomains: msg('admin.identityProvider.domainInUse', { domains: ((e.details as { domains?: string[] } | undefined)?.domains ?? []).join(', ') }) }),
      FEDERATION_UNAVAILABLE: () => ({ form: msg('admin.identityProvider.federationUnavailable') }),
    },
  });
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string | undefined; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="field-hint">{hint}</p>}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The card (see the module doc). */
export function IdentityProviderCard({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const state = useTenantIdentityProvider(tenantId);
  return (
    <section className="card form" aria-labelledby="idp-title">
      <h2 id="idp-title">{msg('admin.identityProvider.title')}</h2>
      {state.error && !state.data ? (
        <ErrorState error={state.error} onRetry={() => void state.mutate()} />
      ) : state.isLoading || !state.data ? (
        <LoadingState />
      ) : (
        <>
          {/* The providers file's provider for this tenant routes its users too: say so, read-only (docs/api.md#tenant-identity-provider). */}
          {state.data.stageProvider && (
            <p className="notice-ok" data-testid="idp-stage-provider">
              {msg('admin.identityProvider.stageProvider', {
                name: state.data.stageProvider.name,
                type: state.data.stageProvider.type.toUpperCase(),
                domains: state.data.stageProvider.emailDomains.join(', '),
              })}
            </p>
          )}
          {state.data.available ? (
            <IdentityProviderForm key={tenantId} tenantId={tenantId} tenantName={tenantName} state={state.data} />
          ) : (
            <p>{msg('admin.identityProvider.unavailable')}</p>
          )}
        </>
      )}
    </section>
  );
}

function IdentityProviderForm({ tenantId, tenantName, state }: { tenantId: string; tenantName: string; state: TenantIdentityProviderState }) {
  const { putIdentityProvider, deleteIdentityProvider } = useAdminActions();
  const [dialog, ask] = useConfirm();
  const [draft, setDraft] = useState<Draft>(() => draftOf(state));
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'save' | 'remove' | null>(null);
  const p = state.provider;
  const secretStored = p?.type === 'oidc' && p.clientSecretSet;
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    const r = bodyOf(draft, secretStored);
    if ('errors' in r) return setErrors(r.errors);
    setErrors({});
    setBusy('save');
    try {
      // The form shows what was stored (domains normalised), with the write-only secret field emptied.
      setDraft(draftOf(await putIdentityProvider(tenantId, r.body)));
      setNotice({ tone: 'ok', text: msg('admin.identityProvider.saved') });
    } catch (err) {
      setErrors(errorsOfApi(err));
    } finally {
      setBusy(null);
    }
  };
  const onRemove = async () => {
    const ok = await ask({
      title: msg('admin.identityProvider.confirmTitle', { name: tenantName }),
      body: msg('admin.identityProvider.confirmBody'),
      confirmLabel: msg('admin.identityProvider.remove'),
    });
    if (!ok) return;
    setNotice(null);
    setBusy('remove');
    try {
      setDraft(draftOf(await deleteIdentityProvider(tenantId)));
      setNotice({ tone: 'ok', text: msg('admin.identityProvider.removed') });
    } catch (err) {
      setErrors(errorsOfApi(err));
    } finally {
      setBusy(null);
    }
  };
  const err = (f: FieldName) => errors[f];
  const described = (f: FieldName) => (errors[f] ? { 'aria-invalid': true, 'aria-describedby': `idp-${f}-error` } : {});

  return (
    <form onSubmit={(e) => void onSave(e)} noValidate>
      <p>{msg('admin.identityProvider.intro')}</p>
      {notice && (
        <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      <dl className="idp-state">
        <dt>{msg('admin.identityProvider.status')}</dt>
        <dd data-testid="idp-status">
          {p ? msg('admin.identityProvider.configured') : state.stageProvider ? msg('admin.identityProvider.onlyStageProvider') : msg('admin.identityProvider.notConfigured')}
          {p?.type === 'oidc' ? ` · ${p.clientSecretSet ? msg('admin.identityProvider.secretSet') : msg('admin.identityProvider.secretNotSet')}` : ''}
        </dd>
        <dt>{msg('admin.identityProvider.providerName')}</dt>
        <dd>
          <code>{state.providerName}</code>
        </dd>
      </dl>
      {p && !state.enabledOnAppClient && (
        <div className="error-state" role="alert">
          <p>{msg('admin.identityProvider.notOnAppClient')}</p>
        </div>
      )}
      {(state.redirectUrl || state.samlEntityId) && (
        <>
          <p>{msg('admin.identityProvider.registerAtProvider')}</p>
          <dl className="idp-register">
            {state.redirectUrl && (
              <>
                <dt>{msg('admin.identityProvider.redirectUrl')}</dt>
                <dd>
                  <code>{state.redirectUrl}</code>
                </dd>
              </>
            )}
            {state.samlEntityId && draft.type === 'saml' && (
              <>
                <dt>{msg('admin.identityProvider.samlEntityId')}</dt>
                <dd>
                  <code>{state.samlEntityId}</code>
                </dd>
              </>
            )}
          </dl>
        </>
      )}
      <fieldset className="field">
        <legend>{msg('admin.identityProvider.type')}</legend>
        {(['oidc', 'saml'] as const).map((k) => (
          <label key={k} className="radio">
            <input type="radio" name="idp-type" value={k} checked={draft.type === k} onChange={() => setDraft((d) => ({ ...d, type: k }))} /> {msg(`admin.identityProvider.${k}`)}
          </label>
        ))}
      </fieldset>
      {draft.type === 'oidc' ? (
        <>
          <Field id="idp-issuerUrl" label={msg('admin.identityProvider.issuerUrl')} error={err('issuerUrl')}>
            <input id="idp-issuerUrl" type="url" value={draft.issuerUrl} onChange={set('issuerUrl')} /* literal-ok: an example address */ placeholder="https://login.microsoftonline.com/…/v2.0" {...described('issuerUrl')} />
          </Field>
          <div className="field-row">
            <Field id="idp-clientId" label={msg('admin.identityProvider.clientId')} error={err('clientId')}>
              <input id="idp-clientId" value={draft.clientId} autoComplete="off" onChange={set('clientId')} {...described('clientId')} />
            </Field>
            <Field id="idp-clientSecret" label={msg('admin.identityProvider.clientSecret')} error={err('clientSecret')} {...(secretStored ? { hint: msg('admin.identityProvider.clientSecretKeep') } : {})}>
              <input id="idp-clientSecret" type="password" value={draft.clientSecret} autoComplete="new-password" onChange={set('clientSecret')} {...described('clientSecret')} />
            </Field>
          </div>
          <Field id="idp-scopes" label={msg('admin.identityProvider.scopes')} error={err('scopes')}>
            <input id="idp-scopes" value={draft.scopes} onChange={set('scopes')} {...described('scopes')} />
          </Field>
        </>
      ) : (
        <Field id="idp-metadataUrl" label={msg('admin.identityProvider.metadataUrl')} error={err('metadataUrl')}>
          <input id="idp-metadataUrl" type="url" value={draft.metadataUrl} onChange={set('metadataUrl')} {...described('metadataUrl')} />
        </Field>
      )}
      <Field id="idp-emailDomains" label={msg('admin.identityProvider.emailDomains')} error={err('emailDomains')}>
        <textarea id="idp-emailDomains" rows={3} value={draft.domains} onChange={set('domains')} {...described('emailDomains')} />
      </Field>
      <FormActions busy={busy === 'save'} disabled={busy !== null} label={msg('admin.identityProvider.save')} busyLabel={msg('actions.saving')} error={errors.form}>
        {p && (
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void onRemove()}>
            {busy === 'remove' ? msg('admin.identityProvider.removing') : msg('admin.identityProvider.remove')}
          </button>
        )}
      </FormActions>
      {dialog}
    </form>
  );
}
