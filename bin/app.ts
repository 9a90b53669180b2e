/**
 * CDK app entry point (`cdk.json` → `node --import tsx bin/app.ts`).
 *
 * Per-stage app (default). Context:
 *   - `stage` (default `dev`; must match `^[a-z][a-z0-9-]{1,20}$`), e.g. `npx cdk synth -c stage=pr-7 --no-notices`;
 *   - `alarmEmail` (optional): e-mail subscribed to the stage's alarm topic;
 *   - `createdAt` (optional, ISO-8601 UTC): tagged `created-at` on every stack (set by
 *     `scripts/platform/deploy.ts`, kept across redeploys; the preview clean-up job reads it).
 *   - `sesFromEmail`, `sesFromName`, `sesRegion`, `sesConfigurationSet` (production stages): the verified SES
 *     identity Cognito sends from (required for `staging`/`prod`); `sesVerifiedDomain` when SES verified the
 *     address's domain instead of the address;
 *   - `tableName` (optional): the stage's table, e.g. one restored from a backup (README "Restore the table");
 *   - `threatProtection` (`off`/`audit`/`enforce`, production stages): Cognito Plus plan threat protection;
 *   - `silenceTenants` (comma-separated tenant ids) and `silenceMinutes`: ingest-silence alarms per tenant;
 *   - `edgeAlarms=true` (production stages, needs the CDK bootstrap in us-east-1 too): the CloudFront 5xx
 *     alarm stack `Vigia-<stage>-EdgeMonitoring` in us-east-1.
 * Once-per-account apps:
 *   - `-c accountStack=true` synthesizes ONLY the `Vigia-Account` stack (API Gateway CloudWatch role,
 *     `infra/account-stack.ts`);
 *   - `-c githubOidc=true -c githubRepo=<owner>/<name>` synthesizes ONLY the `Vigia-GitHubOidc` stack
 *     (GitHub OIDC provider + preview and deploy roles, see `infra/github-oidc-stack.ts`); add
 *     `-c githubOidcProviderArn=<arn>` when the account already has GitHub's provider, and
 *     `-c githubRoles=preview|deploy` to create one role per account (docs/platform.md#ci-credentials).
 * Per-stage `-c previewDeployer=github` (pr-<n> stages, set by preview.yml): the stage is deployed by the
 * GitHub preview role with its own credentials and every role gets the preview permissions boundary.
 *
 * Environment: account/region from `CDK_DEFAULT_ACCOUNT` / `CDK_DEFAULT_REGION` when both are set (the CLI
 * sets them from your credentials), otherwise the app is environment-agnostic (synth works offline).
 * Invalid context makes the app exit with status 1 and a one-line message on stderr.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GITHUB_OIDC_STACK_NAME, GitHubOidcStack, type GitHubRoles } from '../infra/github-oidc-stack.js';
import { ACCOUNT_STACK_CONTEXT, ACCOUNT_STACK_NAME, AccountStack } from '../infra/account-stack.js';
import { DEFAULT_STAGE, stageOverridesFromContext } from '../infra/stage-config.js';
import { addVigiaStacks } from '../infra/vigia-app.js';

const app = new App();
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
const env = account && region ? { env: { account, region } } : {};

try {
  if (ctx(ACCOUNT_STACK_CONTEXT) === 'true') {
    new AccountStack(app, ACCOUNT_STACK_NAME, {
      stackName: ACCOUNT_STACK_NAME,
      description: 'Vigía: API Gateway account CloudWatch role (once per account and region)',
      ...env,
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  } else if (ctx('githubOidc') === 'true') {
    const githubRepo = ctx('githubRepo');
    if (!githubRepo) throw new Error('githubOidc=true needs -c githubRepo=<owner>/<name>');
    new GitHubOidcStack(app, GITHUB_OIDC_STACK_NAME, {
      stackName: GITHUB_OIDC_STACK_NAME,
      description: 'Vigía: GitHub Actions OIDC provider and deploy role (once per account)',
      githubRepo,
      ...(ctx('githubOidcProviderArn') ? { existingProviderArn: ctx('githubOidcProviderArn')! } : {}),
      ...(ctx('githubRoles') ? { roles: ctx('githubRoles') as GitHubRoles } : {}),
      ...env,
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  } else {
    const createdAt = ctx('createdAt');
    addVigiaStacks(app, {
      stage: ctx('stage') ?? DEFAULT_STAGE,
      ...env,
      overrides: stageOverridesFromContext(ctx),
      edgeAlarms: ctx('edgeAlarms') === 'true',
      ...(createdAt ? { createdAt } : {}),
      previewDeployer: ctx('previewDeployer') === 'github',
    });
  }
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
app.synth();
