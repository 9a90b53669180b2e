/**
 * Auth stack (`Vigia-<stage>-Auth`): the Cognito user pool the portal signs in against, its app client,
 * the `admin` group and an identity pool for signed-in users.
 *
 * Rules (the product rules behind them: docs/platform.md#cognito-user-pool):
 *  - e-mail is the username (sign-in alias e-mail only), verified with an e-mailed code;
 *  - password policy: minimum length 8, no required character classes;
 *  - MFA optional, TOTP (authenticator app) only — no SMS;
 *  - account recovery by e-mail only; the app client hides whether a user exists
 *    (`preventUserExistenceErrors`);
 *  - self sign-up per stage (see `stage-config.ts`; off on production stages and previews);
 *  - e-mail from the stage's verified Amazon SES identity on production stages (`UserPoolEmail.withSES`;
 *    the source ARN is the address's identity, or the domain's with `-c sesVerifiedDomain=`; a production stage
 *    without one gets an error annotation, docs/platform.md#cognito-e-mail);
 *  - refresh tokens rotate on every refresh (the app client's refresh token rotation, with the stage's
 *    grace period; the portal refreshes with GetTokensFromRefreshToken);
 *  - Essentials feature plan, or Plus with standard threat protection (audit/enforce) by stage setting;
 *  - the user pool is retained on production stages (`RETAIN_ON_UPDATE_OR_DELETE`) and the prod stack policy
 *    refuses its replacement (`stack-policy.ts`);
 *  - a pre token generation trigger adds `vigia:mfa` = `totp` to ID tokens of users with TOTP, which the API
 *    requires of `admin` members (`pre-token-trigger.ts`; docs/api.md#staff-accounts-and-totp);
 *  - only the `admin` group is created here: tenant groups (`acme`, `globex`, …) are data, created by
 *    scripts, never by the stack;
 *  - the identity pool accepts only this pool + app client, refuses unauthenticated identities, and its
 *    authenticated role has no policies (the portal only needs the identity id);
 *  - federated sign-in only when the stage configures identity providers (`federation-config.ts`,
 *    docs/platform.md#federated-sign-in): then a Cognito domain (`<prefix>.auth.<region>.amazoncognito.com`),
 *    the providers, and OAuth on the app client (authorization code grant only — Amplify always adds PKCE,
 *    S256 — with the site URL as callback and sign-out URL); otherwise no domain and OAuth disabled.
 */
import { Annotations, CfnOutput, Duration, SecretValue, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import type { IUserPoolIdentityProvider, UserPoolClient, UserPoolClientOptions } from 'aws-cdk-lib/aws-cognito';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ProviderAttribute,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolClientIdentityProvider,
  UserPoolEmail,
  UserPoolGroup,
  UserPoolIdentityProviderAmazon,
  UserPoolIdentityProviderApple,
  UserPoolIdentityProviderFacebook,
  UserPoolIdentityProviderGoogle,
  UserPoolIdentityProviderOidc,
  UserPoolIdentityProviderSaml,
  UserPoolIdentityProviderSamlMetadata,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import type { Construct } from 'constructs';
import { ADMIN_GROUP, CUSTOMER_ROLE_GROUPS, CUSTOMER_ROLES } from '../lambdas/contract/routes.js';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { addPreTokenGenerationTrigger, recordAccessRequestsIn } from './pre-token-trigger.js';
import { physicalName, type StageConfig } from './stage-config.js';
import { type FederationConfig, federatedTenants } from './federation-config.js';
import { OIDC_ATTRIBUTE_MAPPING, PORTAL_CLIENT_WRITE_ATTRIBUTES } from './user-pool-attributes.js';

/** Id of the error annotation on a production stage without an SES identity. */
export const SES_MISSING_ERROR = 'vigia:ses-identity-missing';

/**
 * The user pool's e-mail settings: SES from the stage's identity when configured; otherwise Cognito's default
 * sender (undefined), with an error annotation on production stages (`cdk synth`/`deploy` then fail).
 * `EmailConfiguration.SourceArn` is `arn:<partition>:ses:<sesRegion>:<account>:identity/<identity>`, the identity
 * being the verified domain when the stage names one (`sesVerifiedDomain`, CDK's option of the same name), else
 * the from address (Cognito API reference, EmailConfigurationType:
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_EmailConfigurationType.html).
 */
function cognitoEmail(stack: Stack, config: StageConfig): UserPoolEmail | undefined {
  const ses = config.email;
  if (!ses) {
    if (config.profile === 'production') {
      Annotations.of(stack).addError(
        `${SES_MISSING_ERROR}: stage ${config.stage} sends Cognito e-mail to real users: pass a verified SES identity with -c sesFromEmail=<address> -c sesRegion=<region>, and -c sesVerifiedDomain=<domain> when SES verified the address's domain rather than the address (docs/platform.md#cognito-e-mail)`,
      );
    }
    return undefined;
  }
  const sesRegion = ses.sesRegion ?? (Token.isUnresolved(stack.region) ? undefined : stack.region);
  if (!sesRegion) throw new Error(`stage ${config.stage}: sesRegion is required when the stack's region is not known at synth time`);
  return UserPoolEmail.withSES({
    fromEmail: ses.fromEmail,
    ...(ses.verifiedDomain ? { sesVerifiedDomain: ses.verifiedDomain } : {}),
    fromName: ses.fromName ?? 'Vigía',
    sesRegion,
    ...(ses.configurationSet ? { configurationSetName: ses.configurationSet } : {}),
  });
}

export interface AuthStackProps extends StackProps {
  readonly config: StageConfig;
  /**
   * The portal's origin, e.g. `https://d111.cloudfront.net` (a token of the Hosting stack): the OAuth callback
   * and sign-out URL (`<site>/`). Required when the stage has `federation`; unused (and no dependency on
   * Hosting) otherwise.
   */
  readonly siteUrl?: string;
}

/** The SAML attribute Entra ID (and most SAML IdPs) send the e-mail address in. */
export const SAML_EMAIL_ATTRIBUTE = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

/**
 * CDK's attribute mapping of an OIDC provider from OIDC_ATTRIBUTE_MAPPING (infra/user-pool-attributes.ts, also
 * what the local pool applies; developer guide, "Specifying identity provider attribute mappings for your user pool").
 */
function oidcAttributeMapping(): Record<string, ProviderAttribute> {
  return Object.fromEntries(Object.entries(OIDC_ATTRIBUTE_MAPPING).map(([attr, claim]) => [attr, ProviderAttribute.other(claim)]));
}

/**
 * The portal client's `WriteAttributes` as CDK's ClientAttributes, from PORTAL_CLIENT_WRITE_ATTRIBUTES
 * (infra/user-pool-attributes.ts, the list the local pool enforces; API reference, UserPoolClientType
 * `WriteAttributes`). CDK's StandardAttributesMask names differ from Cognito's: the mask is built from
 * Cognito's names, and `attributes()` is checked to give them back.
 */
export function portalClientWriteAttributes(): ClientAttributes {
  const maskKey: Record<string, string> = {
    address: 'address', birthdate: 'birthdate', email: 'email', family_name: 'familyName', gender: 'gender',
    given_name: 'givenName', locale: 'locale', middle_name: 'middleName', name: 'fullname', nickname: 'nickname',
    phone_number: 'phoneNumber', picture: 'profilePicture', preferred_username: 'preferredUsername',
    profile: 'profilePage', zoneinfo: 'timezone', updated_at: 'lastUpdateTime', website: 'website',
    email_verified: 'emailVerified', phone_number_verified: 'phoneNumberVerified',
  };
  const mask = Object.fromEntries(PORTAL_CLIENT_WRITE_ATTRIBUTES.map((a) => {
    const key = maskKey[a];
    if (!key) throw new Error(`write attribute ${a} has no CDK StandardAttributesMask key`);
    return [key, true];
  }));
  const attributes = new ClientAttributes().withStandardAttributes(mask);
  const got = [...attributes.attributes()].sort().join();
  if (got !== [...PORTAL_CLIENT_WRITE_ATTRIBUTES].sort().join()) throw new Error(`portal client write attributes: CDK gives ${got}`);
  return attributes;
}

/**
 * The user pool's identity providers of `federation` (social ones by Cognito's fixed names, enterprise ones
 * with their e-mail domains as identifiers); secrets are Secrets Manager dynamic references. Every provider
 * maps the IdP's e-mail to `email` (the pool requires it).
 */
function addIdentityProviders(stack: Stack, userPool: UserPool, federation: FederationConfig): IUserPoolIdentityProvider[] {
  const secret = (name: string): SecretValue => SecretValue.secretsManager(name);
  const providers: IUserPoolIdentityProvider[] = federation.social.map((p) => {
    switch (p.type) {
      case 'google':
        return new UserPoolIdentityProviderGoogle(stack, 'Google', { userPool, clientId: p.clientId, clientSecretValue: secret(p.clientSecretName), scopes: ['openid', 'email', 'profile'], attributeMapping: { email: ProviderAttribute.GOOGLE_EMAIL } });
      case 'facebook':
        return new UserPoolIdentityProviderFacebook(stack, 'Facebook', { userPool, clientId: p.clientId, clientSecret: secret(p.clientSecretName).unsafeUnwrap(), scopes: ['public_profile', 'email'], attributeMapping: { email: ProviderAttribute.FACEBOOK_EMAIL } });
      case 'amazon':
        return new UserPoolIdentityProviderAmazon(stack, 'Amazon', { userPool, clientId: p.clientId, clientSecret: secret(p.clientSecretName).unsafeUnwrap(), scopes: ['profile'], attributeMapping: { email: ProviderAttribute.AMAZON_EMAIL } });
      case 'apple':
        return new UserPoolIdentityProviderApple(stack, 'Apple', { userPool, clientId: p.clientId, teamId: p.teamId, keyId: p.keyId, privateKeyValue: secret(p.privateKeySecretName), scopes: ['email', 'name'], attributeMapping: { email: ProviderAttribute.APPLE_EMAIL } });
    }
  });
  for (const p of federation.enterprise) {
    const common = { userPool, name: p.name, identifiers: [...p.emailDomains] };
    providers.push(
      p.type === 'oidc'
        ? new UserPoolIdentityProviderOidc(stack, `Oidc${p.name}`, { ...common, issuerUrl: p.issuerUrl, clientId: p.clientId, clientSecret: secret(p.clientSecretName).unsafeUnwrap(), scopes: ['openid', 'email', 'profile'], attributeMapping: oidcAttributeMapping() })
        : new UserPoolIdentityProviderSaml(stack, `Saml${p.name}`, { ...common, metadata: UserPoolIdentityProviderSamlMetadata.url(p.metadataUrl), attributeMapping: { email: ProviderAttribute.other(SAML_EMAIL_ATTRIBUTE) } }),
    );
  }
  return providers;
}

/** The app client's OAuth settings of a federated stage: code grant, the site (and the stage's extra origins) as callback and sign-out URL. */
function oauthClientOptions(config: StageConfig, federation: FederationConfig, siteUrl: string): Pick<UserPoolClientOptions, 'oAuth' | 'supportedIdentityProviders'> {
  const urls = [`${siteUrl}/`, ...config.extraCorsOrigins.map((o) => `${o}/`)];
  const social = { google: UserPoolClientIdentityProvider.GOOGLE, facebook: UserPoolClientIdentityProvider.FACEBOOK, amazon: UserPoolClientIdentityProvider.AMAZON, apple: UserPoolClientIdentityProvider.APPLE };
  return {
    oAuth: {
      flows: { authorizationCodeGrant: true, implicitCodeGrant: false },
      // OAUTH_SCOPES, as CDK constants.
      scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE, OAuthScope.COGNITO_ADMIN],
      callbackUrls: urls,
      logoutUrls: urls,
    },
    supportedIdentityProviders: [
      UserPoolClientIdentityProvider.COGNITO,
      ...federation.social.map((p) => social[p.type]),
      ...federation.enterprise.map((p) => UserPoolClientIdentityProvider.custom(p.name)),
    ],
  };
}

export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly identityPool: IdentityPool;
  /** The hosted domain of a federated stage, e.g. `vigia-prod.auth.eu-west-1.amazoncognito.com`; undefined otherwise. */
  readonly oauthDomain?: string;
  /** The pre token generation trigger (TOTP claim; access requests once given the table). */
  readonly preTokenGeneration: NodejsFunction;
  /** Staff configure enterprise providers at run time (the providers file's `adminConfiguredProviders`). */
  readonly adminConfiguredProviders: boolean;

  /**
   * The trigger records sign-ins of users in no group in `table`'s audit log (docs/api.md#access-requests);
   * this stack then depends on the one holding the table.
   */
  recordAccessRequestsIn(table: ITable): void {
    recordAccessRequestsIn(this.preTokenGeneration, table, this.adminConfiguredProviders);
  }

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { config } = props;
    const federation = config.federation;
    if (federation && !props.siteUrl) throw new Error(`stage ${config.stage}: federated sign-in needs the site URL (callback URL)`);

    const plus = config.threatProtection !== 'off';
    const email = cognitoEmail(this, config);
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: physicalName(config.stage, 'users'),
      featurePlan: plus ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      ...(plus
        ? { standardThreatProtectionMode: config.threatProtection === 'enforce' ? StandardThreatProtectionMode.FULL_FUNCTION : StandardThreatProtectionMode.AUDIT_ONLY }
        : {}),
      ...(email ? { email } : {}),
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      selfSignUpEnabled: config.selfSignUp,
      standardAttributes: { email: { required: true, mutable: true } },
      userVerification: {
        emailStyle: VerificationEmailStyle.CODE,
        emailSubject: 'Vigía: tu código de verificación',
        emailBody: 'Tu código de verificación de Vigía es {####}',
      },
      passwordPolicy: {
        minLength: 8,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
        tempPasswordValidity: Duration.days(7),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Remembered devices on /profile: the user chooses to remember a device; no device challenge on a
      // new device (Cognito "Device tracking": user opt-in).
      deviceTracking: { challengeRequiredOnNewDevice: false, deviceOnlyRememberedOnUserPrompt: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });

    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason: 'The product requires length >= 8 and no character classes (docs/platform.md#cognito-user-pool).',
      },
      {
        id: 'AwsSolutions-COG2',
        reason: 'MFA is optional with TOTP only: users may enrol an authenticator app; making it mandatory is a product decision (docs/platform.md#cognito-user-pool).',
      },
      ...(config.threatProtection === 'enforce'
        ? []
        : [{
            id: 'AwsSolutions-COG8',
            reason: 'Threat protection enforcement is a stage setting (-c threatProtection=enforce, Plus plan billed per monthly active user); off or audit-only here (docs/platform.md#cognito-user-pool).',
          }]),
    );

    this.userPoolClient = this.userPool.addClient('PortalClient', {
      userPoolClientName: physicalName(config.stage, 'portal'),
      generateSecret: false,
      // ALLOW_USER_SRP_AUTH only: with refresh token rotation (below) the refresh goes through
      // GetTokensFromRefreshToken and CDK leaves ALLOW_REFRESH_TOKEN_AUTH out.
      authFlows: { userSrp: true },
      ...(federation ? oauthClientOptions(config, federation, props.siteUrl!) : { disableOAuth: true }),
      preventUserExistenceErrors: true,
      // What users may write on their own profile (SignUp, UpdateUserAttributes): infra/user-pool-attributes.ts.
      writeAttributes: portalClientWriteAttributes(),
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      // Rotation: each refresh returns a new refresh token and invalidates the old one after the grace period
      // (CDK then leaves ALLOW_REFRESH_TOKEN_AUTH out, which rotation requires).
      refreshTokenRotationGracePeriod: Duration.seconds(config.refreshTokenRotationGraceSeconds),
    });

    if (federation) {
      const domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: federation.domainPrefix } });
      this.oauthDomain = `${federation.domainPrefix}.auth.${this.region}.amazoncognito.com`;
      // The client names the providers: they must exist first.
      for (const provider of addIdentityProviders(this, this.userPool, federation)) this.userPoolClient.node.addDependency(provider);
      new CfnOutput(this, 'OAuthDomain', { value: domain.domainName, description: 'Cognito domain prefix of the hosted OAuth endpoints' });
    }

    // Staff need TOTP: the trigger adds the claim the API checks (docs/api.md#staff-accounts-and-totp); on a
    // federated stage it also puts enterprise users in their provider's tenant group.
    this.adminConfiguredProviders = federation?.adminConfiguredProviders === true;
    this.preTokenGeneration = addPreTokenGenerationTrigger(this, this.userPool, config, federation ? federatedTenants(federation) : undefined, this.adminConfiguredProviders);

    new UserPoolGroup(this, 'AdminGroup', {
      userPool: this.userPool,
      groupName: ADMIN_GROUP,
      description: 'Vigía staff: may act on every tenant and open admin-only routes',
    });
    // Customer roles within a tenant (docs/api.md#customer-roles): one group per role, in this stage's pool only.
    for (const role of CUSTOMER_ROLES) {
      new UserPoolGroup(this, `CustomerRole${role[0]!.toUpperCase()}${role.slice(1)}Group`, {
        userPool: this.userPool,
        groupName: CUSTOMER_ROLE_GROUPS[role],
        description: `Customer role ${role} within the user's tenant (docs/api.md#customer-roles)`,
      });
    }

    this.identityPool = new IdentityPool(this, 'IdentityPool', {
      identityPoolName: physicalName(config.stage, 'identities'),
      allowUnauthenticatedIdentities: false,
      allowClassicFlow: false,
      authenticationProviders: {
        userPools: [
          new UserPoolAuthenticationProvider({ userPool: this.userPool, userPoolClient: this.userPoolClient }),
        ],
      },
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId, description: 'Cognito user pool id' });
    new CfnOutput(this, 'UserPoolClientId', {
      value: this.userPoolClient.userPoolClientId,
      description: 'App client id of the portal (no secret)',
    });
    new CfnOutput(this, 'IdentityPoolId', { value: this.identityPool.identityPoolId, description: 'Identity pool id' });
    new CfnOutput(this, 'Region', { value: this.region, description: 'AWS region of the user pool' });
    new CfnOutput(this, 'Stage', { value: config.stage, description: 'Deployment stage' });
  }
}
