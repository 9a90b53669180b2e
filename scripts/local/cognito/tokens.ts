/**
 * Token checks and revocation for the local user pool. cognito-local decodes access tokens without verifying
 * them, and has no GlobalSignOut (docs/local-emulation.md#refresh-and-sign-out); the real service refuses revoked or
 * invalid tokens with NotAuthorizedException (Cognito API reference: GlobalSignOut, RevokeToken, GetUser).
 *
 * Revocation model (as the real pool behaves after GlobalSignOut / RevokeToken):
 *  - GlobalSignOut(user) at time t: every access and refresh token of that user issued before t is refused.
 *    Tokens carry `iat` in whole seconds, so tokens issued in the same second are told apart by their `jti`:
 *    the registry remembers the jti of each access token it saw issued, per refresh token.
 *  - RevokeToken(refresh token): that refresh token and the access tokens issued with it are refused.
 * The refused set (per-user cut-off seconds and revoked jti with their expiry) persists in a JSON file so it
 * survives a restart; the issuance map lives in memory.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { CognitoError } from './policy.js';

/** Claims of a cognito-local access token that the proxy relies on. */
export interface AccessClaims extends JWTPayload {
  username: string;
  client_id: string;
  jti: string;
  iat: number;
  exp: number;
  token_use: 'access';
}

/** Claims of a cognito-local refresh token (a signed JWT there; opaque in the real service). */
export interface RefreshClaims extends JWTPayload {
  'cognito:username': string;
  jti: string;
  iat: number;
  exp: number;
}

interface PersistedState {
  /** Username → tokens with `iat` (s) strictly below this are refused. */
  revokedBefore: Record<string, number>;
  /** jti → expiry (s) of the revoked token, to prune it afterwards. */
  revokedJtis: Record<string, number>;
}

/** Decodes a JWT's payload without verifying it; null when malformed. */
export function decodeClaims(token: unknown): JWTPayload | null {
  if (typeof token !== 'string') return null;
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/** Remembers issued tokens and refuses revoked ones. */
export class RevocationRegistry {
  private readonly issued = new Map<string, { username: string; access: Map<string, number> }>();

  private constructor(
    private readonly file: string,
    private readonly state: PersistedState,
  ) {}

  /** Loads the persisted state from `file` (created on first revocation). */
  static async load(file: string): Promise<RevocationRegistry> {
    let state: PersistedState = { revokedBefore: {}, revokedJtis: {} };
    try {
      state = { ...state, ...(JSON.parse(await readFile(file, 'utf8')) as Partial<PersistedState>) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new RevocationRegistry(file, state);
  }

  /**
   * Records an AuthenticationResult that passed through the proxy. `usedRefreshToken` is the refresh token of a
   * refresh flow (whose result carries no new refresh token).
   */
  recordIssued(result: { AccessToken?: unknown; RefreshToken?: unknown }, usedRefreshToken?: string): void {
    const access = decodeClaims(result.AccessToken);
    const refresh = decodeClaims(result.RefreshToken ?? usedRefreshToken);
    if (!access?.jti || !refresh?.jti || typeof access.username !== 'string') return;
    let entry = this.issued.get(refresh.jti);
    if (!entry) {
      entry = { username: access.username, access: new Map() };
      this.issued.set(refresh.jti, entry);
    }
    entry.access.set(access.jti, access.exp ?? 0);
  }

  /** True when a token of `username` with this `iat` (s) and `jti` has been revoked. */
  isRevoked(username: string, iat: number | undefined, jti: string | undefined): boolean {
    const cutoff = this.state.revokedBefore[username];
    if (cutoff !== undefined && (iat ?? 0) < cutoff) return true;
    return jti !== undefined && jti in this.state.revokedJtis;
  }

  /** GlobalSignOut: refuses every token of `username` issued up to now (`nowMs`, epoch ms). */
  async revokeUser(username: string, nowMs = Date.now()): Promise<void> {
    this.state.revokedBefore[username] = Math.floor(nowMs / 1000);
    for (const [refreshJti, entry] of this.issued) {
      if (entry.username !== username) continue;
      for (const [jti, exp] of entry.access) this.state.revokedJtis[jti] = exp;
      this.state.revokedJtis[refreshJti] = Number.MAX_SAFE_INTEGER;
      this.issued.delete(refreshJti);
    }
    await this.save();
  }

  /** RevokeToken: refuses the refresh token `refresh` (claims) and the access tokens issued with it. */
  async revokeRefreshToken(refresh: RefreshClaims): Promise<void> {
    const entry = this.issued.get(refresh.jti);
    for (const [jti, exp] of entry?.access ?? []) this.state.revokedJtis[jti] = exp;
    this.state.revokedJtis[refresh.jti] = refresh.exp;
    this.issued.delete(refresh.jti);
    await this.save();
  }

  private async save(): Promise<void> {
    const now = Date.now() / 1000;
    for (const [jti, exp] of Object.entries(this.state.revokedJtis)) if (exp < now) delete this.state.revokedJtis[jti];
    await writeFile(this.file, JSON.stringify(this.state, null, 2));
  }
}

/** Verifies cognito-local's tokens (RS256 with its JWKS) and consults the {@link RevocationRegistry}. */
export class TokenVerifier {
  private readonly keys: ReturnType<typeof createLocalJWKSet>;

  /**
   * @param jwks the user pool's JWKS (cognito-local's `/<userPoolId>/.well-known/jwks.json`).
   * @param issuer expected `iss` of access tokens: `<proxy endpoint>/<userPoolId>`.
   */
  constructor(
    jwks: JSONWebKeySet,
    private readonly issuer: string,
    private readonly registry: RevocationRegistry,
  ) {
    this.keys = createLocalJWKSet(jwks);
  }

  /**
   * Verifies an access token as GetUser & co. do in the real service.
   * @throws CognitoError NotAuthorizedException "Invalid Access Token" | "Access Token has expired" |
   *         "Access Token has been revoked".
   */
  async verifyAccessToken(token: unknown): Promise<AccessClaims> {
    if (typeof token !== 'string') throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, { issuer: this.issuer, algorithms: ['RS256'] }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new CognitoError('NotAuthorizedException', 'Access Token has expired');
      throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    }
    if (claims.token_use !== 'access' || typeof claims.username !== 'string' || typeof claims.jti !== 'string') {
      throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    }
    if (this.registry.isRevoked(claims.username, claims.iat, claims.jti)) {
      throw new CognitoError('NotAuthorizedException', 'Access Token has been revoked');
    }
    return claims as AccessClaims;
  }

  /**
   * Verifies a refresh token (signature and expiry; not the issuer, which is opaque in the real service).
   * @throws CognitoError NotAuthorizedException "Invalid Refresh Token" | "Refresh Token has expired" |
   *         "Refresh Token has been revoked".
   */
  async verifyRefreshToken(token: unknown): Promise<RefreshClaims> {
    if (typeof token !== 'string') throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, { algorithms: ['RS256'] }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new CognitoError('NotAuthorizedException', 'Refresh Token has expired');
      throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    }
    const username = claims['cognito:username'];
    if (typeof username !== 'string' || typeof claims.jti !== 'string' || claims.token_use !== undefined) {
      throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    }
    if (this.registry.isRevoked(username, claims.iat, claims.jti)) {
      throw new CognitoError('NotAuthorizedException', 'Refresh Token has been revoked');
    }
    return claims as RefreshClaims;
  }
}
