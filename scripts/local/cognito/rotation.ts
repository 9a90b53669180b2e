/**
 * Refresh token rotation of the local app client, as the deployed client is configured (infra/auth-stack.ts
 * `refreshTokenRotationGracePeriod`; docs/local-emulation.md#refresh-and-sign-out). cognito-local knows nothing
 * of rotation: it refreshes only with a refresh token it issued at sign-in and still lists in
 * `User.RefreshTokens`, and never returns a new one.
 *
 * Model (Cognito API reference, GetTokensFromRefreshToken and RefreshTokenRotationType):
 *  - a sign-in's refresh token starts a FAMILY; its cognito-local token is the family's ANCHOR;
 *  - every GetTokensFromRefreshToken with a member of the family returns a NEW refresh token of that family
 *    (a JWT signed with cognito-local's own key, so the proxy's {@link TokenVerifier} accepts it) and marks the
 *    presented token superseded; a superseded token is accepted for `graceSeconds` after its first use, then
 *    refused with NotAuthorizedException;
 *  - the ID and access tokens come from cognito-local's REFRESH_TOKEN_AUTH with the anchor, so revoking the
 *    anchor (RevokeToken of any member, GlobalSignOut, AdminUserGlobalSignOut) ends the whole family;
 *  - a new token keeps the family's expiry (the sign-in's `exp`): rotation never lengthens a session.
 * The state persists in a JSON file (`<dataDir>/refresh-rotation.json`) so sessions survive a restart.
 */
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { SignJWT } from 'jose';
import { CognitoError } from './policy.js';
import type { RefreshClaims } from './tokens.js';

/** One refresh token of a family: `supersededAt` (epoch ms) is set on its first successful use. */
interface Member {
  family: string;
  /** Expiry of the token, epoch seconds. */
  exp: number;
  supersededAt?: number;
}

interface RotationState {
  /** Family id (the anchor's jti) → the anchor refresh token (cognito-local's) and its user. */
  families: Record<string, { anchor: string; username: string; exp: number }>;
  /** jti → member record. */
  members: Record<string, Member>;
}

/** cognito-local's signing key (its `lib/keys/cognitoLocal.private.json`), which signs its refresh tokens too. */
function cognitoLocalKey(): KeyObject {
  const require = createRequire(import.meta.url);
  const { pem } = require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
  return createPrivateKey(pem);
}

/** What a rotation step hands back to the proxy. */
export interface RotationStep {
  /** The cognito-local refresh token to refresh with (the family's anchor). */
  anchor: string;
  /** Issues the family's next refresh token and supersedes the presented one; call after a successful refresh. */
  rotate(): Promise<string>;
}

/** The refresh token families of the local pool. */
export class RefreshTokenRotation {
  private readonly key = cognitoLocalKey();

  private constructor(
    private readonly file: string,
    private readonly state: RotationState,
  ) {}

  /** Loads the persisted families from `file` (created on the first rotation). */
  static async load(file: string): Promise<RefreshTokenRotation> {
    let state: RotationState = { families: {}, members: {} };
    try {
      state = { ...state, ...(JSON.parse(await readFile(file, 'utf8')) as Partial<RotationState>) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new RefreshTokenRotation(file, state);
  }

  /**
   * Starts a refresh with the (already verified) refresh token `token` whose claims are `claims`.
   * @param graceSeconds the app client's RetryGracePeriodSeconds (0–60).
   * @param nowMs epoch ms.
   * @throws CognitoError NotAuthorizedException "Invalid Refresh Token" for a superseded token past its grace.
   */
  begin(token: string, claims: RefreshClaims, graceSeconds: number, nowMs = Date.now()): RotationStep {
    let member = this.state.members[claims.jti];
    if (!member) {
      // A sign-in's token (cognito-local's): it anchors a new family.
      this.state.families[claims.jti] = { anchor: token, username: claims['cognito:username'], exp: claims.exp };
      member = { family: claims.jti, exp: claims.exp };
      this.state.members[claims.jti] = member;
    }
    if (member.supersededAt !== undefined && nowMs > member.supersededAt + graceSeconds * 1000) {
      throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    }
    const family = this.state.families[member.family];
    if (!family) throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
    const presented = member;
    return {
      anchor: family.anchor,
      rotate: async () => {
        presented.supersededAt ??= nowMs;
        const jti = randomUUID();
        const anchorClaims = JSON.parse(Buffer.from(family.anchor.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
        const next = await new SignJWT({ 'cognito:username': family.username, ...(typeof anchorClaims.email === 'string' ? { email: anchorClaims.email } : {}), jti })
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
          .setIssuedAt(Math.floor(nowMs / 1000))
          .setExpirationTime(family.exp)
          .setIssuer(String(anchorClaims.iss ?? ''))
          .sign(this.key);
        this.state.members[jti] = { family: presented.family, exp: family.exp };
        await this.save(nowMs);
        return next;
      },
    };
  }

  /**
   * The family of refresh token `jti`: its anchor (cognito-local's token) and the claims of every member, for
   * revoking them all; null when `jti` is not a member of a known family.
   */
  familyOf(jti: string): { anchor: string; members: { jti: string; exp: number }[] } | null {
    const member = this.state.members[jti];
    const family = member && this.state.families[member.family];
    if (!member || !family) return null;
    const members = Object.entries(this.state.members)
      .filter(([, m]) => m.family === member.family)
      .map(([id, m]) => ({ jti: id, exp: m.exp }));
    return { anchor: family.anchor, members };
  }

  private async save(nowMs: number): Promise<void> {
    const now = nowMs / 1000;
    for (const [id, family] of Object.entries(this.state.families)) {
      if (family.exp >= now) continue;
      delete this.state.families[id];
      for (const [jti, m] of Object.entries(this.state.members)) if (m.family === id) delete this.state.members[jti];
    }
    await writeFile(this.file, JSON.stringify(this.state, null, 2));
  }
}
