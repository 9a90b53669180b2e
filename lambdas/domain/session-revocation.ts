/**
 * Session revocation: an administrative act that takes access away from a user ends the user's open
 * sessions within {@link REVOCATION_WINDOW_MS} (docs/api.md#session-revocation; decision and measured cost:
 * docs/decisions/session-revocation-marker.md).
 *
 * Why: API Gateway's Cognito user-pool authorizer checks only an ID token's signature, issuer, audience and
 * expiry (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-integrate-with-cognito.html),
 * and AdminDisableUser / AdminUserGlobalSignOut revoke refresh tokens but not the ID tokens already issued: a
 * revoked token still passes any check of only its signature and expiry
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/token-revocation.html). An ID token therefore
 * stays usable until its `exp` (60 minutes in this pool, infra/auth-stack.ts; Cognito allows no less than
 * 5 minutes, `IdTokenValidity`, https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_TokenValidityUnitsType.html,
 * so shorter tokens alone cannot meet 60 s).
 *
 * The rule: "Deshabilitar" (`setUserEnabled` to false), "Quitar del cliente" (`removeTenantUser`) and "Quitar
 * acceso SOC" (`revokeStaff`) write a revocation marker `{ sub, revokedAt }` after the Cognito call, in one
 * transaction with their audit entries (lambdas/domain/admin.ts). Every request with a user token then compares the token's `iat` (seconds) with
 * the marker: `iat * 1000 <= revokedAt` (ms) → 401 SESSION_REVOKED. A token issued after the act (a new
 * sign-in after re-enabling or re-adding, or a refresh, whose claims carry the groups of that moment) passes:
 * nothing has to be undone on re-enable. The comparison is in whole seconds, so a token issued in the same
 * second as the act is refused too (the safe side; the user signs in again a second later).
 *
 * Cost: each API container remembers a user's marker (or its absence) for {@link REVOCATION_CACHE_MS}, at most
 * {@link REVOCATION_CACHE_ENTRIES} users (the oldest forgotten first), so a signed-in user costs one
 * eventually consistent GetItem (0.5 RCU, item < 4 KB) per container per 30 s. Worst case from the act to the
 * refusal: 30 s of cache + DynamoDB's eventual consistency (replication "usually within one second",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html) < 60 s.
 * Own bounded map rather than a cache library: it must run on the handler's injected clock (tests move it),
 * and it is a dozen lines with no dependency added to the Lambda bundles.
 */
import type { AuditEntry } from '../contract/schemas.js';
import type { Identity } from './identity.js';
import { ApiError } from './errors.js';

/** The longest a revoked user's open session may still read after the act (the requirement), ms. */
export const REVOCATION_WINDOW_MS = 60_000;

/** How long a container trusts what it read of a user's marker, ms (≤ half the window: see module doc). */
export const REVOCATION_CACHE_MS = 30_000;

/** Users whose marker a container remembers at most (≈ 100 bytes each: ~1 MB of a 256 MB+ function). */
export const REVOCATION_CACHE_ENTRIES = 10_000;

/** Storage of the revocation markers (lambdas/data/session-revocations.ts). */
export interface SessionRevocationPort {
  /** When the user's tokens were last revoked (ms since the epoch), or null when never (or the marker expired). */
  revokedAt(sub: string): Promise<number | null>;
  /**
   * Records that every token of `sub` issued at or before `at` is revoked (the marker is replaced: the last act
   * wins), with the act's `audit` entries in the same transaction.
   */
  revoke(sub: string, at: Date, audit?: readonly AuditEntry[]): Promise<void>;
}

/**
 * The `iat` claim (issued at, seconds since the epoch) as API Gateway passes it: a number, a string of
 * digits (the local gateway, `flattenClaims`), or a date text such as `Wed Nov 29 10:22:15 UTC 2023` (the
 * form API Gateway REST's Cognito authorizer has been seen to write). Null when absent or unreadable.
 */
export function issuedAtSeconds(claims: Record<string, unknown> | null | undefined): number | null {
  const raw = claims?.iat;
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.floor(raw) : null;
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/**
 * Whether a token issued at `iat` (seconds; null = unknown, treated as issued at the epoch) is revoked by a
 * marker of `revokedAtMs` (null = no marker).
 */
export function isRevoked(iat: number | null, revokedAtMs: number | null): boolean {
  if (revokedAtMs === null) return false;
  return (iat ?? 0) * 1000 <= revokedAtMs;
}

/** Options of {@link sessionRevocationGuard}. */
export interface SessionGuardOptions {
  /** The request clock (the handler's `now`). */
  now: () => Date;
  /** Default {@link REVOCATION_CACHE_MS}. */
  cacheMs?: number;
  /** Default {@link REVOCATION_CACHE_ENTRIES}. */
  maxEntries?: number;
}

/** The per-request check: resolves when the caller's token is not revoked. @throws ApiError SESSION_REVOKED */
export type SessionGuard = (identity: Identity, claims: Record<string, unknown> | null | undefined) => Promise<void>;

/**
 * The check the API's request middleware runs for every user token (lambdas/http/api.ts), with the
 * per-container cache of the module doc. Errors of the store propagate (a throttled table → 503).
 */
export function sessionRevocationGuard(port: SessionRevocationPort, opts: SessionGuardOptions): SessionGuard {
  const cacheMs = opts.cacheMs ?? REVOCATION_CACHE_MS;
  const max = opts.maxEntries ?? REVOCATION_CACHE_ENTRIES;
  const seen = new Map<string, { revokedAt: number | null; until: number }>();
  return async (identity, claims) => {
    const t = opts.now().getTime();
    let entry = seen.get(identity.sub);
    if (!entry || entry.until <= t) {
      entry = { revokedAt: await port.revokedAt(identity.sub), until: t + cacheMs };
      // Map order = insertion order: re-inserting keeps the most recently read last, the first is the oldest.
      seen.delete(identity.sub);
      seen.set(identity.sub, entry);
      if (seen.size > max) seen.delete(seen.keys().next().value!);
    }
    if (isRevoked(issuedAtSeconds(claims), entry.revokedAt)) {
      throw new ApiError('SESSION_REVOKED', 'this session was ended by an administrator; sign in again');
    }
  };
}
