/**
 * `Vigia-GitHubOidc`: deployed ONCE per account and region (not part of the per-stage app; selected with
 * `-c githubOidc=true -c githubRepo=<owner>/<name>`), it lets GitHub Actions of that one repository deploy
 * without stored keys. Design and the reasons behind it: docs/platform.md#ci-credentials.
 *
 *  - the GitHub OIDC identity provider `token.actions.githubusercontent.com` (audience `sts.amazonaws.com`),
 *    or, with `-c githubOidcProviderArn=<arn>`, the one the account already has (IAM allows one provider per
 *    URL; creating a second fails with EntityAlreadyExists);
 *  - role `vigia-github-preview` (`-c githubRoles=preview|deploy|all`, default all): assumable only by pull
 *    request jobs of the repository and by the preview reaper (GitHub environment `preview-cleanup`), it
 *    deploys and destroys `Vigia-pr-*` stacks with its OWN credentials (no CDK bootstrap role: the bootstrap
 *    deploy role may delete any stack of the account). Preview stages synthesized with
 *    `-c previewDeployer=github` use `previewStackSynthesizer()` (assets in this stack's bucket, no bootstrap
 *    role) and put `PREVIEW_BOUNDARY_NAME` on every role they create;
 *  - roles `vigia-github-deploy-staging` and `vigia-github-deploy-prod` (`GITHUB_DEPLOY_ROLE_NAMES`): each
 *    assumable only by its own GitHub environment (`staging`, `prod`) of `.github/workflows/deploy.yml` on
 *    `main` (the OIDC `sub` carries `job_workflow_ref` once the repository uses the subject template of
 *    `GITHUB_SUB_CLAIM_KEYS`: AWS IAM has no condition key for GitHub's other claims); each assumes the CDK
 *    bootstrap roles of this account and region and acts directly only on its own stage (stack policies,
 *    smoke users, table, ingest route);
 *  - role `vigia-github-diff` (`GITHUB_DIFF_ROLE_NAME`): the read-only `cdk diff --method template` of prod
 *    shown before the approval, assumable only by the `prod-diff` environment of deploy.yml on `main`: it
 *    reads stacks and templates and assumes only the CDK bootstrap LOOKUP roles (ReadOnlyAccess), never the
 *    deploy or publishing ones.
 *
 * The preview fence (docs/platform.md#the-preview-fence) is tag-based for taggable resources and name- or
 * caller-based for the untaggable ones a one-account layout shares with production (CloudFront response
 * headers policies and origin access controls, dashboards, Lambda layers, the identity pool, the account's
 * API Gateway settings); test/infra/preview-fence.test.ts evaluates it against every resource of every stage.
 */
import {
  CfnOutput,
  CliCredentialsStackSynthesizer,
  DefaultStackSynthesizer,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Token,
  Validations,
} from 'aws-cdk-lib';
import {
  Effect,
  type IOidcProvider,
  ManagedPolicy,
  OidcProviderNative,
  PermissionsBoundary,
  PolicyStatement,
  Role,
  WebIdentityPrincipal,
} from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct, IConstruct } from 'constructs';

/** Stack name and role names (fixed: one per account). */
export const GITHUB_OIDC_STACK_NAME = 'Vigia-GitHubOidc';
/** One deploy role per GitHub environment of deploy.yml (a staging session can never be a prod one). */
export const GITHUB_DEPLOY_ROLE_NAMES = { staging: 'vigia-github-deploy-staging', prod: 'vigia-github-deploy-prod' } as const;
/** Read-only role of the prod `cdk diff` job (deploy.yml `prod-diff`). */
export const GITHUB_DIFF_ROLE_NAME = 'vigia-github-diff';
export const GITHUB_PREVIEW_ROLE_NAME = 'vigia-github-preview';
export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** GitHub environments whose deploy.yml jobs may assume the deploy role. */
export const GITHUB_ENVIRONMENTS = ['staging', 'prod'] as const;
/** GitHub environment of deploy.yml's read-only prod diff job (no reviewers; deployment branch `main`). */
export const DIFF_ENVIRONMENT = 'prod-diff';
/**
 * The GitHub repository variable holding each CI role's ARN (the stack's outputs name them), read by the
 * workflows' `role-to-assume` and by the deploy-time IAM check to know which role a job runs as.
 */
export const ROLE_VARIABLES = {
  AWS_PREVIEW_ROLE_ARN: GITHUB_PREVIEW_ROLE_NAME,
  AWS_STAGING_DEPLOY_ROLE_ARN: GITHUB_DEPLOY_ROLE_NAMES.staging,
  AWS_PROD_DEPLOY_ROLE_ARN: GITHUB_DEPLOY_ROLE_NAMES.prod,
  AWS_PROD_DIFF_ROLE_ARN: GITHUB_DIFF_ROLE_NAME,
} as const;
/** GitHub environment of the scheduled preview reaper (preview.yml, `main` only). */
export const PREVIEW_CLEANUP_ENVIRONMENT = 'preview-cleanup';
export const DEPLOY_WORKFLOW = '.github/workflows/deploy.yml';
export const PREVIEW_WORKFLOW = '.github/workflows/preview.yml';
/**
 * The repository's OIDC subject template (GitHub REST `PUT /repos/<owner>/<name>/actions/oidc/customization/sub`
 * with `{"use_default":false,"include_claim_keys":[…]}`): `sub` becomes
 * `repo:<owner>/<name>:<context>:job_workflow_ref:<owner>/<name>/<workflow path>@<ref>`.
 */
export const GITHUB_SUB_CLAIM_KEYS = ['repo', 'context', 'job_workflow_ref'] as const;
/** `owner/name` as GitHub spells it (owner 1–39 characters, name up to 100). */
export const GITHUB_REPO_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
/** ARN of an IAM OIDC provider for GitHub (`-c githubOidcProviderArn`). */
export const GITHUB_PROVIDER_ARN_PATTERN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;

/** Which roles the stack creates: `all` (one account for everything), or one per account. */
export type GitHubRoles = 'all' | 'preview' | 'deploy';
export const GITHUB_ROLES: readonly GitHubRoles[] = ['all', 'preview', 'deploy'];

/** DynamoDB actions the preview fence refuses outside `vigia-pr-*` tables: every action but `List*` (see `DenyNonPreviewTables`). */
export const PREVIEW_TABLE_FENCED_ACTIONS = [
  'BatchGet*', 'BatchWrite*', 'ConditionCheckItem', 'Create*', 'Delete*', 'Describe*', 'Disable*', 'Enable*', 'Export*',
  'Get*', 'Import*', 'PartiQL*', 'Put*', 'Query', 'Restore*', 'Scan', 'Start*', 'Tag*', 'Untag*', 'Update*',
] as const;

/**
 * CloudFront resource kinds without tags whose ARNs name a random id (`[<API name part>, <ARN path>]`): the
 * preview role may change them only through CloudFormation, the preview stages' roles never.
 */
export const PREVIEW_UNTAGGED_CLOUDFRONT = [
  ['ResponseHeadersPolicy', 'response-headers-policy'],
  ['OriginAccessControl', 'origin-access-control'],
  ['CachePolicy', 'cache-policy'],
  ['OriginRequestPolicy', 'origin-request-policy'],
] as const;
/**
 * Lambda actions that change or run one function, refused outside the preview functions' names (an explicit
 * list: a `NotResource` deny of `lambda:*` would also refuse the actions on resource "*" a preview needs).
 */
export const PREVIEW_FUNCTION_FENCED_ACTIONS = [
  'CreateFunction', 'UpdateFunctionCode', 'UpdateFunctionConfiguration', 'DeleteFunction', 'InvokeFunction', 'InvokeFunctionUrl',
  'PutFunctionConcurrency', 'DeleteFunctionConcurrency', 'PutFunctionEventInvokeConfig', 'UpdateFunctionEventInvokeConfig', 'DeleteFunctionEventInvokeConfig',
  'PutFunctionRecursionConfig', 'PutFunctionScalingConfig', 'PutRuntimeManagementConfig', 'PutFunctionCodeSigningConfig', 'DeleteFunctionCodeSigningConfig',
  'PublishVersion', 'CreateAlias', 'UpdateAlias', 'DeleteAlias', 'AddPermission', 'RemovePermission',
  'CreateFunctionUrlConfig', 'UpdateFunctionUrlConfig', 'DeleteFunctionUrlConfig', 'PutProvisionedConcurrencyConfig', 'DeleteProvisionedConcurrencyConfig',
] as const;
/** `aws:CalledVia` of the calls CloudFormation makes with the caller's credentials. */
export const CLOUDFORMATION_SERVICE = 'cloudformation.amazonaws.com';

/** Permissions boundary every role of a preview stage deployed by the preview role carries. */
export const PREVIEW_BOUNDARY_NAME = 'vigia-github-preview-boundary';
/** Bucket holding the preview stages' file assets (the preview role's own, not the CDK bootstrap bucket). */
export const PREVIEW_ASSETS_BUCKET = 'vigia-preview-assets-${AWS::AccountId}-${AWS::Region}';
/** Stack and resource name patterns of preview stages (`Vigia-pr-<n>-…`, `vigia-pr-<n>-…`). */
export const PREVIEW_STACK_PATTERN = 'Vigia-pr-*';
/** Services a preview stage's CloudFormation templates create resources of (stack operations run as the preview role). */
export const PREVIEW_SERVICES = ['apigateway', 'cloudfront', 'cloudwatch', 'cognito-identity', 'cognito-idp', 'dynamodb', 'events', 'iam', 'lambda', 'logs', 's3', 'sns', 'sqs'] as const;
/** What the preview stages' own roles (Lambda functions, custom resources) may do at most. */
export const PREVIEW_BOUNDARY_SERVICES = ['cloudfront', 'cognito-idp', 'dynamodb', 'logs', 's3', 'sqs', 'xray'] as const;
/**
 * The identity-provider step of `platform:deploy` (scripts/platform/identity-providers.ts
 * `REATTACH_PROVIDERS_ACTIONS`): the deploy role may call these on the staging/prod user pools only.
 */
export const DEPLOY_IDP_ACTIONS = ['cognito-idp:ListIdentityProviders', 'cognito-idp:DescribeUserPoolClient', 'cognito-idp:UpdateUserPoolClient'] as const;
/** Regions besides its own whose CDK bootstrap roles the deploy role may assume: CloudFront's metrics region (`edgeAlarms`). */
export const DEPLOY_EXTRA_REGIONS = ['us-east-1'] as const;

/**
 * The one `sub` value (StringEquals) allowed to assume the role of GitHub environment `environment` of
 * deploy.yml on main: `repo:<owner>/<name>:environment:<env>:job_workflow_ref:<owner>/<name>/.github/workflows/deploy.yml@refs/heads/main`.
 */
export function deploySubject(repo: string, environment: string): string {
  return `repo:${repo}:environment:${environment}:job_workflow_ref:${repo}/${DEPLOY_WORKFLOW}@refs/heads/main`;
}

/** `sub` values of the deploy roles, staging then prod (each role trusts only its own). */
export function deploySubjects(repo: string): string[] {
  return GITHUB_ENVIRONMENTS.map((e) => deploySubject(repo, e));
}

/**
 * `sub` patterns (StringLike) allowed to assume the preview role: pull request jobs (with the default subject
 * template, or the customised one naming preview.yml) and the reaper's environment on main.
 */
export function previewSubjects(repo: string): string[] {
  return [
    `repo:${repo}:pull_request`,
    `repo:${repo}:pull_request:job_workflow_ref:${repo}/${PREVIEW_WORKFLOW}@refs/pull/*/merge`,
    `repo:${repo}:environment:${PREVIEW_CLEANUP_ENVIRONMENT}:job_workflow_ref:${repo}/${PREVIEW_WORKFLOW}@refs/heads/main`,
  ];
}

/** Every `sub` value or pattern any role of the stack trusts. */
export function allowedSubjects(repo: string): string[] {
  return [...previewSubjects(repo), ...deploySubjects(repo), deploySubject(repo, DIFF_ENVIRONMENT)];
}

/**
 * Synthesizer of a preview stage deployed by the preview role: CLI credentials (the role itself, no
 * bootstrap role), file assets in `PREVIEW_ASSETS_BUCKET`. One instance may serve every stack of the stage.
 */
export function previewStackSynthesizer(): CliCredentialsStackSynthesizer {
  return new CliCredentialsStackSynthesizer({ fileAssetsBucketName: PREVIEW_ASSETS_BUCKET });
}

/**
 * Puts `PREVIEW_BOUNDARY_NAME` on every IAM role of `stack` (a preview stage's stack), and acknowledges the
 * cdk-nag finding of CDK's BucketDeployment handler reading the preview assets bucket (instead of the
 * bootstrap bucket the PortalDeployment stack acknowledges).
 */
export function applyPreviewBoundary(stack: Stack): void {
  PermissionsBoundary.of(stack).apply(ManagedPolicy.fromManagedPolicyName(stack, 'PreviewBoundary', PREVIEW_BOUNDARY_NAME));
  const nag = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  const bucket = PREVIEW_ASSETS_BUCKET.replace('${AWS::AccountId}', nag(stack.account, 'AWS::AccountId')).replace('${AWS::Region}', nag(stack.region, 'AWS::Region'));
  Validations.of(stack).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:${nag(stack.partition, 'AWS::Partition')}:s3:::${bucket}/*]`,
    reason: 'CDK BucketDeployment handler reads the preview assets bucket (objects of the build only).',
  });
}

export interface GitHubOidcStackProps extends StackProps {
  /** `owner/name` of the repository allowed to deploy. @throws Error when malformed */
  readonly githubRepo: string;
  /** ARN of the account's existing GitHub OIDC provider; omitted = the stack creates one. @throws Error when malformed */
  readonly existingProviderArn?: string;
  /** Roles to create (default `all`). */
  readonly roles?: GitHubRoles;
}

export class GitHubOidcStack extends Stack {
  readonly provider: IOidcProvider;
  /** The deploy role of each GitHub environment (`roles` all or deploy). */
  readonly deployRoles?: Partial<Record<(typeof GITHUB_ENVIRONMENTS)[number], Role>>;
  readonly diffRole?: Role;
  readonly previewRole?: Role;
  readonly previewBoundary?: ManagedPolicy;
  readonly previewAssets?: Bucket;

  constructor(scope: Construct, id: string, props: GitHubOidcStackProps) {
    super(scope, id, props);
    const repo = props.githubRepo;
    if (!GITHUB_REPO_PATTERN.test(repo)) {
      throw new Error(`githubRepo "${repo}" must be <owner>/<name>, e.g. -c githubRepo=acme/vigia`);
    }
    const roles = props.roles ?? 'all';
    if (!GITHUB_ROLES.includes(roles)) throw new Error(`githubRoles "${String(roles)}" must be one of ${GITHUB_ROLES.join(', ')}`);
    if (props.existingProviderArn !== undefined && !GITHUB_PROVIDER_ARN_PATTERN.test(props.existingProviderArn)) {
      throw new Error(`githubOidcProviderArn "${props.existingProviderArn}" must be arn:aws:iam::<account>:oidc-provider/${GITHUB_OIDC_HOST}`);
    }
    this.provider = props.existingProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubProvider', props.existingProviderArn)
      : new OidcProviderNative(this, 'GitHubProvider', { url: `https://${GITHUB_OIDC_HOST}`, clientIds: ['sts.amazonaws.com'] });

    const arn = (service: string, resource: string, region = this.region) => `arn:${this.partition}:${service}:${region}:${this.account}:${resource}`;
    const iamArn = (resource: string) => `arn:${this.partition}:iam::${this.account}:${resource}`;
    const principal = (condition: Record<string, Record<string, string | string[]>>) =>
      new WebIdentityPrincipal(this.provider.oidcProviderArn, { StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com' }, ...condition });
    const readStacks = new PolicyStatement({ sid: 'ReadStacks', actions: ['cloudformation:DescribeStacks'], resources: ['*'] });
    const apiGatewayAccount = new PolicyStatement({ sid: 'ReadApiGatewayAccount', actions: ['apigateway:GET'], resources: [`arn:${this.partition}:apigateway:${this.region}::/account`] });

    // cdk-nag names unresolved pseudo parameters <AWS::…> and concrete ones (env-bound stack) literally.
    const nag = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const [p, r, a] = [nag(this.partition, 'AWS::Partition'), nag(this.region, 'AWS::Region'), nag(this.account, 'AWS::AccountId')];
    const acknowledge = (c: IConstruct, findings: Array<[string, string]>) => {
      for (const [finding, reason] of findings) Validations.of(c).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    };

    if (roles !== 'preview') {
      const qualifier: string = this.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
      // Its own region and us-east-1, where `edgeAlarms` puts Vigia-<stage>-EdgeMonitoring (CloudFront metrics).
      const regions = [this.region, ...DEPLOY_EXTRA_REGIONS.filter((x) => x !== this.region)];
      const bootstrapRoles = (kinds: readonly string[]) => regions.flatMap((region) => kinds.map((k) => iamArn(`role/cdk-${qualifier}-${k}-role-${this.account}-${region}`)));
      const deployRoles: Partial<Record<(typeof GITHUB_ENVIRONMENTS)[number], Role>> = {};
      for (const env of GITHUB_ENVIRONMENTS) {
        const role = new Role(this, env === 'staging' ? 'StagingDeployRole' : 'ProdDeployRole', {
          roleName: GITHUB_DEPLOY_ROLE_NAMES[env],
          description: `GitHub Actions of ${repo}: deploy.yml in the ${env} environment only, through the CDK bootstrap roles`,
          maxSessionDuration: Duration.hours(1),
          assumedBy: principal({ StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com', [`${GITHUB_OIDC_HOST}:sub`]: deploySubject(repo, env) } }),
        });
        role.addToPolicy(new PolicyStatement({ sid: 'AssumeCdkBootstrapRoles', actions: ['sts:AssumeRole', 'sts:TagSession'], resources: bootstrapRoles(['deploy', 'file-publishing', 'image-publishing', 'lookup']) }));
        // DescribeStacks without a stack name is authorised against resource "*" (Service Authorization Reference).
        role.addToPolicy(readStacks);
        role.addToPolicy(apiGatewayAccount);
        // platform:deploy's fresh-account preflight (scripts/platform/preflight.ts, docs/platform.md#fresh-account-preflight):
        // account-wide reads (resource "*" in the Service Authorization Reference) and the SES identity Cognito sends from.
        role.addToPolicy(new PolicyStatement({ sid: 'DeployPreflight', actions: ['lambda:GetAccountSettings', 'cloudfront:ListDistributions', 'ses:GetAccount'], resources: ['*'] }));
        role.addToPolicy(new PolicyStatement({ sid: 'DeployPreflightSesIdentity', actions: ['ses:GetEmailIdentity'], resources: [`arn:${this.partition}:ses:*:${this.account}:identity/*`] }));
        // platform:deploy finds the table the stage uses (a restored table's stream) and, on production stages, the
        // retained table and dead-letter queue a destroyed stage left, and whether a stack holds them
        // (scripts/platform/restore.ts tableContext, scripts/platform/retained.ts RETAINED_CHECK_ACTIONS;
        // docs/platform.md#retained-resources). DescribeStackResources by physical id names no stack: resource "*".
        role.addToPolicy(new PolicyStatement({ sid: 'DeployFindsTables', actions: ['dynamodb:DescribeTable'], resources: [arn('dynamodb', `table/vigia-${env}-*`)] }));
        role.addToPolicy(new PolicyStatement({ sid: 'DeployFindsRetainedQueue', actions: ['sqs:GetQueueUrl'], resources: [arn('sqs', `vigia-${env}-*`)] }));
        role.addToPolicy(new PolicyStatement({ sid: 'DeployFindsStackOfResource', actions: ['cloudformation:DescribeStackResources'], resources: ['*'] }));
        // After a production deploy, platform:deploy sets the stack policy refusing replacements (docs/platform.md#replacements).
        role.addToPolicy(new PolicyStatement({
          sid: 'SetStackPolicies',
          actions: ['cloudformation:SetStackPolicy', 'cloudformation:GetStackPolicy'],
          resources: [arn('cloudformation', `stack/Vigia-${env}-*/*`)],
        }));
        // The post-deploy smoke test (scripts/platform/smoke.ts): an admin-created smoke user in the smoke tenant,
        // its collector grant, and one SigV4-signed ingest call as this role. invite-user finds an existing user
        // by e-mail (ListUsers) through the admin Lambda's users port.
        const ownPool = { StringEquals: { 'aws:ResourceTag/project': 'vigia', 'aws:ResourceTag/stage': env } };
        role.addToPolicy(new PolicyStatement({
          sid: 'SmokeUsers',
          actions: ['cognito-idp:CreateGroup', 'cognito-idp:GetGroup', 'cognito-idp:ListUsers', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminGetUser'],
          resources: [arn('cognito-idp', 'userpool/*')],
          conditions: ownPool,
        }));
        // platform:deploy re-attaches the staff-configured identity providers to the app client (docs/platform.md#federated-sign-in).
        role.addToPolicy(new PolicyStatement({ sid: 'ReattachIdentityProviders', actions: [...DEPLOY_IDP_ACTIONS], resources: [arn('cognito-idp', 'userpool/*')], conditions: ownPool }));
        role.addToPolicy(new PolicyStatement({ sid: 'SmokeTenant', actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], resources: [arn('dynamodb', `table/vigia-${env}-*`)] }));
        role.addToPolicy(new PolicyStatement({ sid: 'SmokeIngest', actions: ['execute-api:Invoke'], resources: [arn('execute-api', `*/${env}/POST/ingest/*`)] }));
        acknowledge(role, [
          ['Resource::*', 'Read-only: cloudformation:DescribeStacks (listing), DescribeStackResources by physical id (retained resources) and the preflight reads lambda:GetAccountSettings, cloudfront:ListDistributions, ses:GetAccount need resource "*".'],
          [`Resource::arn:${p}:ses:*:${a}:identity/*`, 'ses:GetEmailIdentity (read) of the SES identity Cognito sends from, in the stage\'s SES region.'],
          [`Resource::arn:${p}:cloudformation:${r}:${a}:stack/Vigia-${env}-*/*`, `Stack policies of the ${env} stacks only.`],
          [`Resource::arn:${p}:cognito-idp:${r}:${a}:userpool/*`, `User pool ids are random; limited by the tags project=vigia and stage=${env}.`],
          [`Resource::arn:${p}:dynamodb:${r}:${a}:table/vigia-${env}-*`, 'The stage table (its name is a stage setting, e.g. a restored table).'],
          [`Resource::arn:${p}:sqs:${r}:${a}:vigia-${env}-*`, 'sqs:GetQueueUrl (read) of the stage\'s retained dead-letter queue.'],
          [`Resource::arn:${p}:execute-api:${r}:${a}:*/${env}/POST/ingest/*`, 'The smoke test signs one ingest call; API ids are random.'],
        ]);
        new CfnOutput(this, env === 'staging' ? 'StagingDeployRoleArn' : 'ProdDeployRoleArn', {
          value: role.roleArn,
          description: `GitHub repository variable ${env === 'staging' ? 'AWS_STAGING_DEPLOY_ROLE_ARN' : 'AWS_PROD_DEPLOY_ROLE_ARN'}`,
        });
        deployRoles[env] = role;
      }
      this.deployRoles = deployRoles;

      // `cdk diff --method template` reads the deployed templates through the bootstrap lookup role (the CDK
      // CLI's "template" method; "auto"/"change-set" would need the deploy role), and with its own credentials
      // when that role cannot be assumed: DescribeStacks and GetTemplate of the prod stacks, nothing else.
      const diff = new Role(this, 'DiffRole', {
        roleName: GITHUB_DIFF_ROLE_NAME,
        description: `GitHub Actions of ${repo}: deploy.yml's read-only prod cdk diff (environment ${DIFF_ENVIRONMENT})`,
        maxSessionDuration: Duration.hours(1),
        assumedBy: principal({ StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com', [`${GITHUB_OIDC_HOST}:sub`]: deploySubject(repo, DIFF_ENVIRONMENT) } }),
      });
      diff.addToPolicy(new PolicyStatement({ sid: 'AssumeCdkLookupRoles', actions: ['sts:AssumeRole', 'sts:TagSession'], resources: bootstrapRoles(['lookup']) }));
      diff.addToPolicy(readStacks);
      diff.addToPolicy(new PolicyStatement({ sid: 'ReadProdTemplates', actions: ['cloudformation:GetTemplate', 'cloudformation:GetTemplateSummary'], resources: regions.map((region) => arn('cloudformation', 'stack/Vigia-prod-*/*', region)) }));
      acknowledge(diff, [
        ['Resource::*', 'Read-only cloudformation:DescribeStacks: listing stacks needs resource "*".'],
        ...regions.map((region): [string, string] => [`Resource::arn:${p}:cloudformation:${nag(region, 'AWS::Region')}:${a}:stack/Vigia-prod-*/*`, 'Reads the prod templates only.']),
      ]);
      new CfnOutput(this, 'DiffRoleArn', { value: diff.roleArn, description: 'GitHub repository variable AWS_PROD_DIFF_ROLE_ARN' });
      this.diffRole = diff;
    }

    if (roles !== 'deploy') {
      const assets = new Bucket(this, 'PreviewAssets', {
        bucketName: `vigia-preview-assets-${this.account}-${this.region}`,
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        lifecycleRules: [{ expiration: Duration.days(30) }],
        removalPolicy: RemovalPolicy.DESTROY,
        autoDeleteObjects: false,
      });
      Validations.of(assets).acknowledge({ id: 'AwsSolutions-S1', reason: 'Build artefacts of preview stages (content-addressed Lambda bundles and portal files), expired after 30 days; CloudTrail records the writers.' });

      const tagGuard = new PolicyStatement({
        sid: 'DenyOtherStages',
        effect: Effect.DENY,
        actions: ['*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:ResourceTag/project': 'vigia' }, StringNotLike: { 'aws:ResourceTag/stage': 'pr-*' } },
      });
      const tableGuard = new PolicyStatement({
        sid: 'DenyNonPreviewTables',
        effect: Effect.DENY,
        // Every DynamoDB action but the List* ones, which name no table (resource "*"; Service Authorization
        // Reference, Amazon DynamoDB) and only list names: a stream consumer's event source mapping needs
        // `dynamodb:ListStreams` (found denied by the deploy-time IAM check, scripts/aws-rules/deploy-iam.ts).
        actions: PREVIEW_TABLE_FENCED_ACTIONS.map((a) => `dynamodb:${a}`),
        notResources: [arn('dynamodb', 'table/vigia-pr-*'), arn('dynamodb', 'table/vigia-pr-*/*')],
      });

      // Queues and rules of preview stages only (their names: `vigia-pr-<n>-…` queues, generated `Vigia-pr-<n>-…` rules).
      const queueGuard = new PolicyStatement({
        sid: 'DenyNonPreviewQueues',
        effect: Effect.DENY,
        actions: ['sqs:*'],
        notResources: [arn('sqs', 'vigia-pr-*')],
      });
      const ruleGuard = new PolicyStatement({
        sid: 'DenyNonPreviewRules',
        effect: Effect.DENY,
        actions: ['events:*'],
        notResources: [arn('events', `rule/${PREVIEW_STACK_PATTERN}`)],
      });

      // S3 has no stage tags to fence on: writes elsewhere (the CDK bootstrap assets bucket a production deploy
      // reuses by content hash, production site buckets) are refused by name.
      const bucketGuard = new PolicyStatement({
        sid: 'DenyNonPreviewBuckets',
        effect: Effect.DENY,
        actions: ['s3:*'],
        notResources: [assets.bucketArn, assets.arnForObjects('*'), `arn:${this.partition}:s3:::vigia-pr-*`, `arn:${this.partition}:s3:::vigia-pr-*/*`],
      });

      // Untaggable resources a one-account layout shares with production (the tag guard cannot see them).
      // Named ones are fenced by name: dashboards `vigia-<stage>-dashboard` and the CDK-generated Lambda layers
      // `Vigia-<stage>-…` (CloudWatch and Lambda resource ARNs, Service Authorization Reference).
      const dashboardGuard = new PolicyStatement({
        sid: 'DenyNonPreviewDashboards',
        effect: Effect.DENY,
        actions: ['cloudwatch:PutDashboard', 'cloudwatch:DeleteDashboards'],
        notResources: [`arn:${this.partition}:cloudwatch::${this.account}:dashboard/vigia-pr-*`],
      });
      // Lambda functions CDK creates as raw resources (custom resource providers such as the dev site bucket's
      // auto-delete handler) carry no tags: functions are fenced by name too (`vigia-pr-<n>-…`, `Vigia-pr-<n>-…`).
      const functionGuard = new PolicyStatement({
        sid: 'DenyNonPreviewFunctions',
        effect: Effect.DENY,
        actions: PREVIEW_FUNCTION_FENCED_ACTIONS.map((x) => `lambda:${x}`),
        notResources: ['function:vigia-pr-*', `function:${PREVIEW_STACK_PATTERN}`].map((f) => arn('lambda', f)),
      });
      // The assets bucket itself is the once-per-account stack's: objects may be read and uploaded, nothing else.
      const assetsGuard = (allowed: string[]) => new PolicyStatement({
        sid: 'DenyAssetsBucketChanges',
        effect: Effect.DENY,
        notActions: allowed,
        resources: [assets.bucketArn, assets.arnForObjects('*')],
      });
      const layerGuard = new PolicyStatement({
        sid: 'DenyNonPreviewLayers',
        effect: Effect.DENY,
        actions: ['lambda:PublishLayerVersion', 'lambda:DeleteLayerVersion', 'lambda:AddLayerVersionPermission', 'lambda:RemoveLayerVersionPermission'],
        notResources: [arn('lambda', `layer:${PREVIEW_STACK_PATTERN}`), arn('lambda', `layer:${PREVIEW_STACK_PATTERN}:*`)],
      });
      // CloudFront response headers policies (the portal's CSP and HSTS), origin access controls, cache and
      // origin request policies have neither tags nor names in their ARNs (`…:response-headers-policy/<id>`):
      // only CloudFormation may change them, and only in the preview stacks the role may operate on (aws:CalledVia,
      // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-calledvia;
      // CloudFormation acts on a stack's own resources, and importing existing ones is denied below).
      const untaggedCloudFront = new PolicyStatement({
        sid: 'DenyUntaggedCloudFront',
        effect: Effect.DENY,
        actions: PREVIEW_UNTAGGED_CLOUDFRONT.flatMap(([kind]) => [`cloudfront:Update${kind}`, `cloudfront:Delete${kind}`]),
        resources: PREVIEW_UNTAGGED_CLOUDFRONT.map(([, path]) => `arn:${this.partition}:cloudfront::${this.account}:${path}/*`),
        conditions: { 'ForAllValues:StringNotEquals': { 'aws:CalledVia': CLOUDFORMATION_SERVICE } },
      });

      const boundary = new ManagedPolicy(this, 'PreviewBoundary', {
        managedPolicyName: PREVIEW_BOUNDARY_NAME,
        description: 'Permissions boundary of every role a preview stage (Vigia-pr-*) creates',
        statements: [
          new PolicyStatement({ sid: 'PreviewFunctions', actions: PREVIEW_BOUNDARY_SERVICES.map((s) => `${s}:*`), resources: ['*'] }),
          tagGuard,
          tableGuard,
          bucketGuard,
          queueGuard,
          dashboardGuard,
          assetsGuard(['s3:Get*', 's3:List*']),
          // The preview stages' functions never change CloudFront policies or access controls.
          new PolicyStatement({ sid: 'DenyUntaggedCloudFront', effect: Effect.DENY, actions: untaggedCloudFront.actions, resources: untaggedCloudFront.resources }),
        ],
      });

      const role = new Role(this, 'PreviewRole', {
        roleName: GITHUB_PREVIEW_ROLE_NAME,
        description: `GitHub Actions of ${repo}: pull-request previews (Vigia-pr-* stacks only) and their reaper`,
        maxSessionDuration: Duration.hours(1),
        assumedBy: principal({ 'ForAnyValue:StringLike': { [`${GITHUB_OIDC_HOST}:sub`]: previewSubjects(repo) } }),
      });
      const previewStacks = [arn('cloudformation', `stack/${PREVIEW_STACK_PATTERN}/*`), arn('cloudformation', `changeSet/cdk-*/*`)];
      role.addToPolicy(new PolicyStatement({
        sid: 'PreviewStacks',
        actions: [
          'cloudformation:CreateChangeSet', 'cloudformation:DescribeChangeSet', 'cloudformation:ExecuteChangeSet', 'cloudformation:DeleteChangeSet',
          'cloudformation:CreateStack', 'cloudformation:UpdateStack', 'cloudformation:DeleteStack', 'cloudformation:RollbackStack', 'cloudformation:ContinueUpdateRollback',
          'cloudformation:DescribeStackEvents', 'cloudformation:DescribeStackResources', 'cloudformation:ListStackResources', 'cloudformation:GetTemplate', 'cloudformation:GetTemplateSummary',
        ],
        resources: previewStacks,
      }));
      role.addToPolicy(readStacks);
      role.addToPolicy(apiGatewayAccount);
      role.addToPolicy(new PolicyStatement({ sid: 'PreviewAssets', actions: ['s3:GetObject*', 's3:PutObject*', 's3:ListBucket', 's3:GetBucketLocation', 's3:GetEncryptionConfiguration'], resources: [assets.bucketArn, assets.arnForObjects('*')] }));
      // CloudFormation runs the preview stacks' operations with the caller's credentials (no execution role), so
      // the role may create what a preview template holds, fenced by the deny statements below.
      role.addToPolicy(new PolicyStatement({ sid: 'PreviewResources', actions: PREVIEW_SERVICES.map((s) => `${s}:*`), resources: ['*'] }));
      role.addToPolicy(tagGuard);
      role.addToPolicy(tableGuard);
      role.addToPolicy(bucketGuard);
      role.addToPolicy(queueGuard);
      role.addToPolicy(ruleGuard);
      role.addToPolicy(dashboardGuard);
      role.addToPolicy(layerGuard);
      role.addToPolicy(functionGuard);
      role.addToPolicy(assetsGuard(['s3:Get*', 's3:List*', 's3:PutObject']));
      role.addToPolicy(untaggedCloudFront);
      // The identity pool is untagged and named by a random id; its settings and roles change only through
      // CloudFormation (SetIdentityPoolRoles names no resource: Service Authorization Reference, Amazon Cognito Identity).
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyIdentityPoolsOutsideCloudFormation',
        effect: Effect.DENY,
        actions: ['cognito-identity:UpdateIdentityPool', 'cognito-identity:DeleteIdentityPool', 'cognito-identity:SetIdentityPoolRoles'],
        resources: ['*'],
        conditions: { 'ForAllValues:StringNotEquals': { 'aws:CalledVia': CLOUDFORMATION_SERVICE } },
      }));
      // The account's API Gateway settings (the CloudWatch logging role), a singleton Vigia-Account owns.
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyApiGatewayAccount',
        effect: Effect.DENY,
        actions: ['apigateway:PATCH', 'apigateway:PUT', 'apigateway:POST', 'apigateway:DELETE'],
        resources: [`arn:${this.partition}:apigateway:*::/account`],
      }));
      // A resource import would put an existing (production) resource under a preview stack.
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyResourceImport',
        effect: Effect.DENY,
        actions: ['cloudformation:CreateChangeSet'],
        resources: ['*'],
        conditions: { Null: { 'cloudformation:ImportResourceTypes': 'false' } },
      }));
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyNonPreviewStacks',
        effect: Effect.DENY,
        actions: ['Create*', 'Update*', 'Delete*', 'Execute*', 'Set*', 'Rollback*', 'ContinueUpdateRollback', 'Cancel*', 'Signal*', 'Import*'].map((x) => `cloudformation:${x}`),
        notResources: previewStacks,
      }));
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyIamOutsidePreviews',
        effect: Effect.DENY,
        actions: ['iam:*'],
        notResources: [iamArn(`role/${PREVIEW_STACK_PATTERN}`), iamArn('policy/vigia-pr-*'), iamArn(`policy/${PREVIEW_STACK_PATTERN}`), iamArn('role/aws-service-role/*')],
      }));
      // Roles it creates carry the boundary, which it may not remove or swap (no privilege escalation).
      role.addToPolicy(new PolicyStatement({
        sid: 'DenyRolesWithoutBoundary',
        effect: Effect.DENY,
        actions: ['iam:CreateRole', 'iam:PutRolePermissionsBoundary'],
        resources: ['*'],
        conditions: { StringNotEquals: { 'iam:PermissionsBoundary': boundary.managedPolicyArn } },
      }));
      role.addToPolicy(new PolicyStatement({ sid: 'DenyBoundaryRemoval', effect: Effect.DENY, actions: ['iam:DeleteRolePermissionsBoundary'], resources: ['*'] }));
      role.addToPolicy(new PolicyStatement({ sid: 'DenyAssumeRole', effect: Effect.DENY, actions: ['sts:AssumeRole'], resources: ['*'] }));
      // Seeding of the preview (preview.yml creates a tenant and a test user).
      role.addToPolicy(new PolicyStatement({
        sid: 'SeedPreviewTables',
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [arn('dynamodb', 'table/vigia-pr-*-main')],
      }));
      const fenced = 'CloudFormation creates the preview stage resources with this role (no execution role); fenced by the deny statements (docs/platform.md#ci-credentials).';
      acknowledge(role, [
        ['Resource::*', 'DescribeStacks (listing) and the preview resources need "*"; other stages, tables, stacks and IAM names are denied explicitly.'],
        ...PREVIEW_SERVICES.map((s): [string, string] => [`Action::${s}:*`, fenced]),
        ['Action::s3:GetObject*', 'Asset upload to the preview assets bucket only.'],
        ['Action::s3:PutObject*', 'Asset upload to the preview assets bucket only.'],
        [`Resource::<${this.getLogicalId(assets.node.defaultChild as CfnBucket)}.Arn>/*`, 'Objects of the preview assets bucket.'],
        [`Resource::arn:${p}:cloudformation:${r}:${a}:stack/${PREVIEW_STACK_PATTERN}/*`, 'Preview stacks only.'],
        [`Resource::arn:${p}:cloudformation:${r}:${a}:changeSet/cdk-*/*`, 'The CDK CLI change sets of the preview stacks.'],
        [`Resource::arn:${p}:dynamodb:${r}:${a}:table/vigia-pr-*-main`, 'Preview tables only (vigia-pr-<n>-main): seeding a preview tenant.'],
      ]);
      acknowledge(boundary, [
        ['Resource::*', 'Permissions boundary: the ceiling of the preview stages\' roles, not a grant; fenced by its deny statements.'],
        ...PREVIEW_BOUNDARY_SERVICES.map((s): [string, string] => [`Action::${s}:*`, 'Permissions boundary: the ceiling of the preview stages\' roles, not a grant.']),
      ]);
      new CfnOutput(this, 'PreviewRoleArn', { value: role.roleArn, description: 'GitHub repository variable AWS_PREVIEW_ROLE_ARN' });
      this.previewRole = role;
      this.previewBoundary = boundary;
      this.previewAssets = assets;
    }

    new CfnOutput(this, 'OidcProviderArn', { value: this.provider.oidcProviderArn, description: 'GitHub OIDC provider' });
  }
}
