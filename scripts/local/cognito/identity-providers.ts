/**
 * The local user pool's identity providers (cognito-local has none of Cognito's provider API): what the admin
 * Lambda's staff-configured providers need (docs/local-emulation.md#identity-providers-set-by-staff), kept in
 * `<dataDir>/identity-providers.json` so they survive a restart like users do.
 *
 * Operations (IAM-authorised like every administrative call of the local pool: SigV4 of an operator key),
 * with Cognito's request and response shapes and the errors the admin Lambda relies on:
 *  - CreateIdentityProvider: `DuplicateProviderException` for an existing name; `InvalidParameterException` for a
 *    name outside Cognito's pattern (1–32 characters, no `_` or spaces), a ProviderType other than OIDC/SAML,
 *    missing details (OIDC: client_id, oidc_issuer, authorize_scopes; SAML: MetadataURL or MetadataFile), or an
 *    identifier already routed to another provider of the pool ("Duplicate identifier").
 *  - UpdateIdentityProvider (the given parts replace the stored ones), DescribeIdentityProvider,
 *    DeleteIdentityProvider, GetIdentityProviderByIdentifier: `ResourceNotFoundException` for an unknown one.
 * Not checked offline (Cognito does): the OIDC issuer's discovery document and the SAML metadata are not fetched
 * at creation; the hosted endpoints discover an OIDC issuer at the first sign-in through it (./hosted.ts).
 * DescribeUserPoolClient / UpdateUserPoolClient are cognito-local's own (its update merges omitted settings where
 * Cognito resets them; the admin Lambda sends every setting anyway).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CognitoError } from './policy.js';

type Json = Record<string, unknown>;

/** One provider as Cognito's `IdentityProviderType` describes it. */
export interface LocalIdentityProvider {
  ProviderName: string;
  ProviderType: 'OIDC' | 'SAML';
  ProviderDetails: Record<string, string>;
  AttributeMapping: Record<string, string>;
  IdpIdentifiers: string[];
  CreationDate: number;
  LastModifiedDate: number;
}

/** Cognito's `ProviderName` pattern for OIDC/SAML providers (API reference: `[^_\p{Z}][\p{L}\p{M}\p{S}\p{N}\p{P}][^_\p{Z}]+`, 1–32). */
const NAME = /^[^_\p{Z}][\p{L}\p{M}\p{S}\p{N}\p{P}][^_\p{Z}]+$/u;
/** `IdpIdentifiers` items: 1–40 characters of `[\w\s+=.@-]`. */
const IDENTIFIER = /^[\w\s+=.@-]{1,40}$/;

const invalid = (m: string) => new CognitoError('InvalidParameterException', m);
const notFound = () => new CognitoError('ResourceNotFoundException', 'Identity provider does not exist.');

/** The providers of one pool in a JSON file; every method reads and writes the file (a handful of providers). */
export class LocalIdentityProviders {
  private constructor(private readonly file: string) {}

  /** The store of `dataDir`; `seed` providers (the providers file of `npm start`) are created when absent. */
  static async open(dataDir: string, seed: readonly Omit<LocalIdentityProvider, 'CreationDate' | 'LastModifiedDate'>[] = []): Promise<LocalIdentityProviders> {
    const store = new LocalIdentityProviders(join(dataDir, 'identity-providers.json'));
    const all = await store.all();
    const now = Math.floor(Date.now() / 1000);
    for (const p of seed) all[p.ProviderName] = { ...p, CreationDate: all[p.ProviderName]?.CreationDate ?? now, LastModifiedDate: now };
    await store.save(all);
    return store;
  }

  async all(): Promise<Record<string, LocalIdentityProvider>> {
    return existsSync(this.file) ? (JSON.parse(await readFile(this.file, 'utf8')) as Record<string, LocalIdentityProvider>) : {};
  }

  private async save(all: Record<string, LocalIdentityProvider>): Promise<void> {
    await writeFile(this.file, JSON.stringify(all, null, 2));
  }

  /** The provider named `name`, or null. */
  async get(name: string): Promise<LocalIdentityProvider | null> {
    return (await this.all())[name] ?? null;
  }

  private static checkIdentifiers(all: Record<string, LocalIdentityProvider>, name: string, ids: unknown): string[] {
    if (ids === undefined) return [];
    if (!Array.isArray(ids) || ids.length > 50 || !ids.every((i) => typeof i === 'string' && IDENTIFIER.test(i))) throw invalid('Invalid IdpIdentifiers.');
    for (const p of Object.values(all)) {
      if (p.ProviderName !== name && p.IdpIdentifiers.some((i) => ids.includes(i))) throw invalid('Duplicate identifier: an identifier is already used by another identity provider.');
    }
    return ids as string[];
  }

  private static checkDetails(type: string, d: Record<string, string>): void {
    if (type === 'OIDC' && (!d.client_id || !d.oidc_issuer || !d.authorize_scopes)) throw invalid('OIDC providers need client_id, oidc_issuer and authorize_scopes.');
    if (type === 'OIDC' && !/^https?:\/\//.test(d.oidc_issuer!)) throw invalid('oidc_issuer must be a URL.');
    if (type === 'SAML' && !d.MetadataURL && !d.MetadataFile) throw invalid('SAML providers need MetadataURL or MetadataFile.');
  }

  /** The JSON protocol handlers, by target name. */
  handlers(): Record<string, (body: Json) => Promise<Json>> {
    const describe = (p: LocalIdentityProvider) => ({ IdentityProvider: p });
    return {
      CreateIdentityProvider: async (body) => {
        const all = await this.all();
        const name = String(body.ProviderName ?? '');
        if (name.length > 32 || !NAME.test(name)) throw invalid('Invalid ProviderName.');
        if (all[name]) throw new CognitoError('DuplicateProviderException', 'A provider with the name already exists in this user pool.');
        const type = String(body.ProviderType);
        if (type !== 'OIDC' && type !== 'SAML') throw invalid('Only OIDC and SAML providers are emulated offline.');
        const details = { ...((body.ProviderDetails ?? {}) as Record<string, string>) };
        LocalIdentityProviders.checkDetails(type, details);
        const now = Math.floor(Date.now() / 1000);
        all[name] = {
          ProviderName: name,
          ProviderType: type,
          ProviderDetails: details,
          AttributeMapping: { ...((body.AttributeMapping ?? {}) as Record<string, string>) },
          IdpIdentifiers: LocalIdentityProviders.checkIdentifiers(all, name, body.IdpIdentifiers),
          CreationDate: now,
          LastModifiedDate: now,
        };
        await this.save(all);
        return describe(all[name]);
      },
      UpdateIdentityProvider: async (body) => {
        const all = await this.all();
        const p = all[String(body.ProviderName ?? '')];
        if (!p) throw notFound();
        const details = body.ProviderDetails ? { ...p.ProviderDetails, ...(body.ProviderDetails as Record<string, string>) } : p.ProviderDetails;
        LocalIdentityProviders.checkDetails(p.ProviderType, details);
        const next: LocalIdentityProvider = {
          ...p,
          ProviderDetails: details,
          AttributeMapping: body.AttributeMapping ? { ...(body.AttributeMapping as Record<string, string>) } : p.AttributeMapping,
          IdpIdentifiers: body.IdpIdentifiers !== undefined ? LocalIdentityProviders.checkIdentifiers(all, p.ProviderName, body.IdpIdentifiers) : p.IdpIdentifiers,
          LastModifiedDate: Math.floor(Date.now() / 1000),
        };
        all[p.ProviderName] = next;
        await this.save(all);
        return describe(next);
      },
      DescribeIdentityProvider: async (body) => {
        const p = await this.get(String(body.ProviderName ?? ''));
        if (!p) throw notFound();
        return describe(p);
      },
      DeleteIdentityProvider: async (body) => {
        const all = await this.all();
        const name = String(body.ProviderName ?? '');
        if (!all[name]) throw notFound();
        delete all[name];
        await this.save(all);
        return {};
      },
      GetIdentityProviderByIdentifier: async (body) => {
        const id = String(body.IdpIdentifier ?? '');
        const p = Object.values(await this.all()).find((x) => x.IdpIdentifiers.includes(id));
        if (!p) throw notFound();
        return describe(p);
      },
    };
  }
}
