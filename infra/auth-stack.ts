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
 *  - self sign-up per stage (see `stage-config.ts`);
 *  - only the `admin` group is created here: tenant groups (`acme`, `globex`, …) are data, created by
 *    scripts, never by the stack;
 *  - the identity pool accepts only this pool + app client, refuses unauthenticated identities, and its
 *    authenticated role has no policies (the portal only needs the identity id).
 */
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type {
  UserPoolClient} from 'aws-cdk-lib/aws-cognito';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  UserPool,
  UserPoolGroup,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import type { Construct } from 'constructs';
import { ADMIN_GROUP } from '../lambdas/contract/routes.js';
import { physicalName, type StageConfig } from './stage-config.js';

export interface AuthStackProps extends StackProps {
  readonly config: StageConfig;
}

export class AuthStack extends Stack {
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly identityPool: IdentityPool;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: physicalName(config.stage, 'users'),
      featurePlan: FeaturePlan.ESSENTIALS,
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
      {
        id: 'AwsSolutions-COG8',
        reason: 'Essentials feature plan: the Plus plan (threat protection) is billed per monthly active user; revisit for production traffic.',
      },
    );

    this.userPoolClient = this.userPool.addClient('PortalClient', {
      userPoolClientName: physicalName(config.stage, 'portal'),
      generateSecret: false,
      // ALLOW_USER_SRP_AUTH + ALLOW_REFRESH_TOKEN_AUTH (CDK always adds the refresh flow).
      authFlows: { userSrp: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    new UserPoolGroup(this, 'AdminGroup', {
      userPool: this.userPool,
      groupName: ADMIN_GROUP,
      description: 'Vigía staff: may act on every tenant and open admin-only routes',
    });

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
