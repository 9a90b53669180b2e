/**
 * `Vigia-GitHubOidc`: deployed ONCE per account and region (not part of the per-stage app; selected with
 * `-c githubOidc=true -c githubRepo=<owner>/<name>`), it lets GitHub Actions of that one repository deploy
 * without stored keys:
 *
 *  - the GitHub OIDC identity provider `token.actions.githubusercontent.com` (audience `sts.amazonaws.com`;
 *    IAM validates GitHub's certificate itself, no thumbprint pinned — AWS IAM user guide, "Create an
 *    OpenID Connect (OIDC) identity provider");
 *  - role `vigia-github-deploy` (1 h sessions) that only GitHub workflow runs of `githubRepo` may assume,
 *    and only from: the `main` branch, pull requests, or the `staging`/`prod` GitHub environments
 *    (OIDC `sub` claims `repo:<repo>:ref:refs/heads/main`, `repo:<repo>:pull_request`,
 *    `repo:<repo>:environment:<env>` — GitHub docs, "About security hardening with OpenID Connect").
 *
 * Permissions of the role:
 *  1. `sts:AssumeRole` / `sts:TagSession` on the CDK bootstrap roles of this account and region only
 *     (`cdk-<qualifier>-{deploy,file-publishing,image-publishing,lookup}-role-<account>-<region>`): every
 *     deployment and destruction goes through CloudFormation with the bootstrap execution role;
 *  2. read-only `cloudformation:DescribeStacks` on `*` (stage outputs; the clean-up job lists every stack to
 *     find previews by tag, which IAM authorises against `*`);
 *  3. seeding of PREVIEW stages only (the preview workflow creates a tenant and a test user): Cognito group /
 *     admin-user actions on user pools tagged `project=vigia` and `stage=pr-*`, and `PutItem`/`GetItem` on
 *     the `vigia-pr-*-main` tables. Production user pools and tables cannot be touched directly.
 */
import { CfnOutput, DefaultStackSynthesizer, Duration, Stack, type StackProps, Token, Validations } from 'aws-cdk-lib';
import { OidcProviderNative, PolicyStatement, Role, WebIdentityPrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/** Stack name and role name (fixed: one per account). */
export const GITHUB_OIDC_STACK_NAME = 'Vigia-GitHubOidc';
export const GITHUB_DEPLOY_ROLE_NAME = 'vigia-github-deploy';
export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';
/** GitHub environments whose jobs may assume the role (deploy.yml). */
export const GITHUB_ENVIRONMENTS = ['staging', 'prod'] as const;
/** `owner/name` as GitHub spells it (owner 1–39 characters, name up to 100). */
export const GITHUB_REPO_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

/** OIDC `sub` values allowed to assume the deploy role. */
export function allowedSubjects(repo: string): string[] {
  return [
    `repo:${repo}:ref:refs/heads/main`,
    `repo:${repo}:pull_request`,
    ...GITHUB_ENVIRONMENTS.map((e) => `repo:${repo}:environment:${e}`),
  ];
}

export interface GitHubOidcStackProps extends StackProps {
  /** `owner/name` of the repository allowed to deploy. @throws Error when malformed */
  readonly githubRepo: string;
}

export class GitHubOidcStack extends Stack {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: GitHubOidcStackProps) {
    super(scope, id, props);
    if (!GITHUB_REPO_PATTERN.test(props.githubRepo)) {
      throw new Error(`githubRepo "${props.githubRepo}" must be <owner>/<name>, e.g. -c githubRepo=acme/vigia`);
    }
    const provider = new OidcProviderNative(this, 'GitHubProvider', {
      url: `https://${GITHUB_OIDC_HOST}`,
      clientIds: ['sts.amazonaws.com'],
    });

    this.role = new Role(this, 'DeployRole', {
      roleName: GITHUB_DEPLOY_ROLE_NAME,
      description: `GitHub Actions of ${props.githubRepo}: deploy Vigía stages through the CDK bootstrap roles`,
      maxSessionDuration: Duration.hours(1),
      assumedBy: new WebIdentityPrincipal(provider.oidcProviderArn, {
        StringEquals: { [`${GITHUB_OIDC_HOST}:aud`]: 'sts.amazonaws.com' },
        'ForAnyValue:StringEquals': { [`${GITHUB_OIDC_HOST}:sub`]: allowedSubjects(props.githubRepo) },
      }),
    });

    const qualifier: string =
      this.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const bootstrapRoles = ['deploy', 'file-publishing', 'image-publishing', 'lookup'].map(
      (kind) => `arn:${this.partition}:iam::${this.account}:role/cdk-${qualifier}-${kind}-role-${this.account}-${this.region}`,
    );
    this.role.addToPolicy(new PolicyStatement({ sid: 'AssumeCdkBootstrapRoles', actions: ['sts:AssumeRole', 'sts:TagSession'], resources: bootstrapRoles }));
    // DescribeStacks without a stack name (the clean-up job lists every stack to find previews by tag) is
    // authorised against resource "*" (AWS Service Authorization Reference, CloudFormation); read-only.
    this.role.addToPolicy(new PolicyStatement({ sid: 'ReadStacks', actions: ['cloudformation:DescribeStacks'], resources: ['*'] }));
    this.role.addToPolicy(
      new PolicyStatement({
        sid: 'SeedPreviewUserPools',
        actions: ['cognito-idp:CreateGroup', 'cognito-idp:GetGroup', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminGetUser'],
        resources: [`arn:${this.partition}:cognito-idp:${this.region}:${this.account}:userpool/*`],
        conditions: { StringEquals: { 'aws:ResourceTag/project': 'vigia' }, StringLike: { 'aws:ResourceTag/stage': 'pr-*' } },
      }),
    );
    this.role.addToPolicy(
      new PolicyStatement({
        sid: 'SeedPreviewTables',
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem'],
        resources: [`arn:${this.partition}:dynamodb:${this.region}:${this.account}:table/vigia-pr-*-main`],
      }),
    );

    // cdk-nag names unresolved pseudo parameters <AWS::…> and concrete ones (env-bound stack) literally.
    const nag = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const [p, r, a] = [nag(this.partition, 'AWS::Partition'), nag(this.region, 'AWS::Region'), nag(this.account, 'AWS::AccountId')];
    const wildcards: Array<[string, string]> = [
      ['*', 'Read-only cloudformation:DescribeStacks: listing stacks to find preview stages by tag needs resource "*".'],
      [`arn:${p}:cognito-idp:${r}:${a}:userpool/*`, 'User pool ids are random; the statement is limited by the tags project=vigia and stage=pr-* (preview pools only).'],
      [`arn:${p}:dynamodb:${r}:${a}:table/vigia-pr-*-main`, 'Preview tables only (vigia-pr-<n>-main), PutItem/GetItem to seed a preview tenant.'],
    ];
    for (const [resource, reason] of wildcards) {
      Validations.of(this.role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
    }

    new CfnOutput(this, 'DeployRoleArn', {
      value: this.role.roleArn,
      description: 'Set as the GitHub repository variable AWS_DEPLOY_ROLE_ARN',
    });
    new CfnOutput(this, 'OidcProviderArn', { value: provider.oidcProviderArn, description: 'GitHub OIDC provider' });
  }
}
