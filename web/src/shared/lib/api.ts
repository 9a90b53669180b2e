/**
 * HTTP client of the business API, typed by operation id: `api.call('listIncidents', { query })` resolves
 * with that operation's response type. Method and path come from the route table (`routeById`, `buildPath`
 * of `lambdas/contract/routes.ts`); the request and response types are inferred from the same rows
 * (`OperationParams` / `OperationQuery` / `OperationBody` / `OperationResponse`), so no caller names a path
 * or picks a response type.
 *
 * - Sends the Cognito ID token in `Authorization` (API Gateway's Cognito user-pool authorizer reads it
 *   there). The token comes from Amplify's `fetchAuthSession()`, which refreshes an expired token itself.
 * - If no session can be obtained (refresh failed, signed out elsewhere) or the API answers 401, the
 *   user is signed out; the sign-in gate then shows `/page/login` (docs/portal.md#session-loss).
 * - Each request times out after `timeoutMs` (default 15 000 ms) via `AbortController`.
 * - Every failure is an `ApiError` with a `kind`, the API's `code`/`requestId` when present, and a
 *   `userMessage` in the portal's language (docs/portal.md#error-messages).
 *
 * - A GET answered with an `ETag` (e.g. `GET /summary`, docs/api.md#summary) is remembered by URL (the last
 *   `ETAG_MEMORY` URLs); the next GET of that URL sends `If-None-Match` and, on `304 Not Modified`, resolves
 *   with the remembered body — so a poll of an unchanged view costs the API one small read. (A request that
 *   carries `If-None-Match` bypasses the browser's HTTP cache — Fetch standard, "HTTP-network-or-cache fetch" —
 *   so the 304 reaches this code in every browser; `test/e2e/conditional-fetch.e2e.ts` shows it in Chromium,
 *   which also revalidates a plain GET from its own HTTP cache — a cache the client does not rely on.)
 *
 * This module (and so the route table) is loaded only by the signed-in chunk, never by the sign-in page.
 */
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { pendingSignIn } from './pending-sign-in';
import { buildPath, routeById } from './contract';
import { t } from './messages';
import { markSessionRevoked } from './session-revoked';
import type { ApiErrorBody, OperationBody, OperationId, OperationParams, OperationQuery, OperationResponse } from './contract';

/** Default request timeout, ms. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** GET URLs whose last `ETag` and body a client remembers (oldest forgotten first). */
export const ETAG_MEMORY = 50;

/**
 * How a request failed:
 * - `network`: no HTTP response (offline, DNS, CORS refused);
 * - `timeout`: no response within the timeout;
 * - `session`: no valid session (ID token unavailable, or HTTP 401) — the user is being signed out;
 * - `client`: HTTP 4xx other than 401 (`code` is the API's error code, e.g. `VERSION_CONFLICT`);
 * - `server`: HTTP 5xx, or a 2xx/3xx response that is not the expected JSON.
 */
export type ApiErrorKind = 'network' | 'timeout' | 'session' | 'client' | 'server';

/**
 * API error codes with a message of their own (`ui.apiErrors.codes.<CODE>` of the message catalogue,
 * docs/portal.md#error-messages): UNKNOWN_ASSIGNEE is an assignee the API does not accept
 * (docs/api.md#assignees); MFA_REQUIRED is staff without TOTP (docs/api.md#staff-accounts-and-totp; the
 * error state links to /profile); SERVICE_UNAVAILABLE a 503 with Retry-After (docs/api.md#errors: nothing
 * was changed); RESERVED_NAME a tenant id or e-mail domain reserved for the staff (docs/api.md#reserved-names).
 * Other codes get the message of their kind (`ui.apiErrors.kinds.<kind>`).
 */
const CODES_WITH_MESSAGE = new Set([
  'VALIDATION_FAILED', 'INVALID_JSON', 'TENANT_REQUIRED', 'UNKNOWN_ASSIGNEE', 'FORBIDDEN', 'MFA_REQUIRED', 'NOT_FOUND',
  'VERSION_CONFLICT', 'INVALID_TRANSITION', 'TRIAGE_REQUIRED', 'PAYLOAD_TOO_LARGE', 'THROTTLED', 'SERVICE_UNAVAILABLE', 'RESERVED_NAME',
  // The user was disabled or lost its access while signed in (docs/api.md#session-revocation).
  'SESSION_REVOKED',
  // Staff removing their own staff access; an access request decided meanwhile (docs/api.md#access-requests).
  'OWN_STAFF_ACCESS',
  'ACCESS_REQUEST_DECIDED',
  // An incident opened for an alarm the tenant does not have, or one already linked (docs/api.md#linked-alarms).
  'ALARM_NOT_FOUND',
  'ALARM_ALREADY_LINKED',
] as const);
type CodeWithMessage = typeof CODES_WITH_MESSAGE extends Set<infer C> ? C : never;

/** A failed API call. `status` is null when there was no HTTP response. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly details: unknown;

  constructor(init: {
    kind: ApiErrorKind;
    message: string;
    status?: number | null;
    code?: string | null;
    requestId?: string | null;
    details?: unknown;
  }) {
    super(init.message);
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.requestId = init.requestId ?? null;
    this.details = init.details;
  }

  /** Text for end users in the portal's language: by API code when known, else by kind (docs/portal.md#messages). */
  get userMessage(): string {
    return this.code && CODES_WITH_MESSAGE.has(this.code as CodeWithMessage)
      ? t(`ui.apiErrors.codes.${this.code as CodeWithMessage}`)
      : t(`ui.apiErrors.kinds.${this.kind}`);
  }
}

/** `{ [key]: T }` when the operation has that part (`T` is not `never`), else the key may only be absent. */
type Part<K extends string, T> = [T] extends [never] ? { readonly [P in K]?: undefined } : { readonly [P in K]: T };

/**
 * What one call sends: `params` (path parameters) and `body` exactly when the operation has them, the
 * `query` it accepts (`undefined`/`null`/`''` values are left out of the URL), and extra request
 * `headers` such as `Idempotency-Key`.
 */
export type CallInput<Op extends OperationId> = Part<'params', OperationParams<Op>> &
  Part<'body', OperationBody<Op>> & {
    readonly query?: OperationQuery<Op>;
    readonly headers?: Readonly<Record<string, string>>;
  };

/** The arguments after the operation id: the input may be left out when nothing in it is required. */
export type CallArgs<Op extends OperationId> = object extends CallInput<Op> ? [input?: CallInput<Op>] : [input: CallInput<Op>];

/** Operations whose query offers `format=csv` (the report and the analytics download). */
export type CsvOperationId = {
  [Op in OperationId]: 'csv' extends NonNullable<OperationQuery<Op> extends { format?: infer F } ? F : never> ? Op : never;
}[OperationId];

/** The calls features make; each rejects with `ApiError`. */
export interface ApiClient {
  /** Calls `op` and resolves with its JSON response (its success status is the route row's). */
  call<Op extends OperationId>(op: Op, ...input: CallArgs<Op>): Promise<OperationResponse<Op>>;
  /** Calls `op` with `format=csv` (`Accept: text/csv`) and resolves with the CSV text of the attachment. */
  csv<Op extends CsvOperationId>(op: Op, ...input: CallArgs<Op>): Promise<string>;
}

export interface ApiClientOptions {
  /** API base URL without trailing slash (`config.apiUrl`). */
  baseUrl: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  /** Returns the current ID token (JWT); rejects when there is no valid session. */
  getIdToken?: () => Promise<string>;
  /** Called once when the session is gone; default: `signOut()` (the gate then shows /page/login). */
  onSessionExpired?: () => void;
}

/**
 * The ID token of the current Amplify session — or, before Amplify has stored a sign-in the gate opened the
 * portal for, that sign-in's token (`pending-sign-in.ts`); rejects when there is none (refresh failed).
 */
export async function currentIdToken(): Promise<string> {
  const session = await fetchAuthSession();
  const token = session.tokens?.idToken?.toString() ?? pendingSignIn()?.token;
  if (!token) throw new Error('no ID token in the current session');
  return token;
}

function defaultSessionExpired(): void {
  signOut().catch((err: unknown) => console.error('[vigia] sign-out after session loss failed', err));
}

/** The input of a call as the transport sees it (the typed `CallInput` with its types erased). */
interface WireInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
}

function buildUrl(baseUrl: string, path: string, query?: Record<string, unknown>): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** Creates a client bound to `baseUrl`. See the module comment for headers, timeout and errors. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const getIdToken = options.getIdToken ?? currentIdToken;
  const onSessionExpired = options.onSessionExpired ?? defaultSessionExpired;
  /** URL of a GET → the `ETag` and body of its last 2xx answer (insertion order = age). */
  const validated = new Map<string, { etag: string; text: string }>();

  /** One HTTP exchange for operation `op`; resolves with the response text of a 2xx answer. */
  async function send(op: OperationId, input: WireInput, accept: 'application/json' | 'text/csv'): Promise<{ status: number; text: string }> {
    const route = routeById(op);
    const { method } = route;
    const path = buildPath(route.path, input.params);
    const doFetch = options.fetchImpl ?? fetch;
    let token: string;
    try {
      token = await getIdToken();
    } catch (err) {
      if (err instanceof Error && err.name === 'NetworkError') {
        throw new ApiError({ kind: 'network', message: `session refresh failed: ${err.message}` });
      }
      onSessionExpired();
      throw new ApiError({ kind: 'session', message: `no session: ${String(err)}` });
    }

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { ...input.headers, Authorization: token, Accept: accept };
    if (input.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = buildUrl(options.baseUrl, path, input.query);
    const remembered = method === 'GET' ? validated.get(`${accept} ${url}`) : undefined;
    if (remembered) headers['If-None-Match'] = remembered.etag;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (err) {
      if (controller.signal.aborted) {
        throw new ApiError({ kind: 'timeout', message: `${method} ${path} timed out after ${timeoutMs} ms` });
      }
      throw new ApiError({ kind: 'network', message: `${method} ${path} failed: ${String(err)}` });
    } finally {
      clearTimeout(timer);
    }

    if (response.status === 304 && remembered) return { status: 200, text: remembered.text };
    if (response.ok) {
      const etag = method === 'GET' ? response.headers.get('ETag') : null;
      if (etag) {
        validated.delete(`${accept} ${url}`);
        validated.set(`${accept} ${url}`, { etag, text });
        if (validated.size > ETAG_MEMORY) validated.delete(validated.keys().next().value!);
      }
      return { status: response.status, text };
    }

    const errBody = (parseJson(text) ?? {}) as Partial<ApiErrorBody>;
    const common = {
      status: response.status,
      code: typeof errBody.code === 'string' ? errBody.code : null,
      requestId: typeof errBody.requestId === 'string' ? errBody.requestId : response.headers.get('x-amzn-requestid'),
      details: errBody.details,
      message: `${method} ${path}: HTTP ${response.status}${errBody.message ? ` ${errBody.message}` : ''}`,
    };
    if (response.status === 401) {
      // The sign-in page then says why (docs/portal.md#session-loss).
      if (common.code === 'SESSION_REVOKED') markSessionRevoked();
      onSessionExpired();
      throw new ApiError({ kind: 'session', ...common });
    }
    throw new ApiError({ kind: response.status >= 500 ? 'server' : 'client', ...common });
  }

  return {
    async call(op, ...[input]) {
      const { status, text } = await send(op, (input ?? {}) as WireInput, 'application/json');
      const json = parseJson(text);
      if (json === undefined && status !== 204) {
        const { method, path } = routeById(op);
        throw new ApiError({ kind: 'server', status, message: `${method} ${path}: response is not JSON` });
      }
      // The body's type is the route row's response schema (the API answers with that schema).
      return json as OperationResponse<typeof op>;
    },
    async csv(op, ...[input]) {
      const wire = (input ?? {}) as WireInput;
      const { text } = await send(op, { ...wire, query: { ...wire.query, format: 'csv' } }, 'text/csv');
      return text;
    },
  };
}

/** `text` as JSON, or `undefined` when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Narrows an unknown error to `ApiError`, wrapping anything else as a `server` error. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError({ kind: 'server', message: err instanceof Error ? err.message : String(err) });
}
