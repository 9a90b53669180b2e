/**
 * The preview fence in a one-account layout (issue 29 point 6, docs/platform.md#the-preview-fence): the preview
 * role (`vigia-github-preview`, what any same-repository pull request gets) and every role a preview stage
 * creates (within `vigia-github-preview-boundary`) are evaluated with @cloud-copilot/iam-simulate
 * (scripts/aws-rules/iam.ts) against EVERY resource of the synthesized prod, staging and dev stages and of the
 * once-per-account stacks, for every mutating action (Write, Permissions management, Tagging) the resource's
 * type's CloudFormation handlers need (scripts/aws-rules/cfn-permissions.json), on the ARN each acts on, with
 * the resource's own tags only where the resource has tags and IAM can see them. Every call must be denied.
 * The preview stage's own deploy stays allowed: test/infra/deploy-iam.test.ts ("preview: no call is denied").
 */
import { describe, expect, it } from 'vitest';
import { CLOUDFORMATION_SERVICE, GITHUB_PREVIEW_ROLE_NAME, PREVIEW_BOUNDARY_NAME } from '../../infra/github-oidc-stack.js';
import { evaluateDecisions, mutatingCalls, oidcRole, PRODUCTION_OVERRIDES, STACK_ACTIONS, type DeployDecision } from '../../scripts/aws-rules/deploy-iam.js';
import { evaluate, rolePrincipals, type IamPrincipal, type PolicyDocument } from '../../scripts/aws-rules/iam.js';
import { FAKE_ACCOUNT, synthOnceStacks, synthStage, type SynthesizedStack } from '../../scripts/aws-rules/templates.js';

const SLOW = 600_000;
const env = { account: FAKE_ACCOUNT, region: 'eu-west-1' };
type Statement = Record<string, unknown>;
const statements = (p: PolicyDocument): Statement[] => (Array.isArray(p.Statement) ? p.Statement : [p.Statement]) as Statement[];

/** The preview role and the boundary, synthesized in the production account and region (one-account layout). */
const oidc = synthOnceStacks({ githubRepo: 'acme/vigia', githubRoles: 'all', env }).stacks;
const previewRole = oidcRole(oidc, GITHUB_PREVIEW_ROLE_NAME);
const boundaryDoc = (() => {
  const s = oidc.find((x) => x.stackName === 'Vigia-GitHubOidc')!;
  const p = Object.values(s.template.Resources).find((r) => r.Type === 'AWS::IAM::ManagedPolicy' && r.Properties?.ManagedPolicyName === PREVIEW_BOUNDARY_NAME)!;
  // The boundary's statements name no intrinsic but the partition and account; resolve them through the role map.
  const withBoundary = [...rolePrincipals([...synthStage({ stage: 'pr-42', previewDeployer: true, env }).stacks, ...oidc]).values()].find((r) => r.permissionsBoundary);
  return withBoundary?.permissionsBoundary?.policy ?? (p.Properties!.PolicyDocument as PolicyDocument);
})();
/** The strongest role a preview stage could create: allowed everything, within the boundary. */
const previewStageRole: IamPrincipal = {
  name: 'Vigia-pr-42-Api/AnyFunctionRole',
  arn: `arn:aws:iam::${FAKE_ACCOUNT}:role/Vigia-pr-42-Api-AnyFunctionRole`,
  account: FAKE_ACCOUNT,
  identityPolicies: [{ name: 'everything', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } }],
  permissionsBoundary: { name: PREVIEW_BOUNDARY_NAME, policy: boundaryDoc },
  awsManagedPolicies: [],
};

/** The stacks a preview must not change: prod, staging, dev (all in the one account) and the once-per-account ones. */
function productionStacks(): Array<{ stage: string; stacks: SynthesizedStack[] }> {
  return [
    { stage: 'prod', stacks: synthStage({ stage: 'prod', env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks },
    { stage: 'staging', stacks: synthStage({ stage: 'staging', env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks },
    { stage: 'dev', stacks: synthStage({ stage: 'dev', env }).stacks },
    { stage: 'account', stacks: oidc },
  ];
}

/** The role with the statements whose Sid `drop` names removed (the policy before a fix). */
function without(role: IamPrincipal, drop: readonly string[]): IamPrincipal {
  return {
    ...role,
    identityPolicies: role.identityPolicies.map((p) => ({ ...p, policy: { ...p.policy, Statement: statements(p.policy).filter((st) => !drop.includes(String(st.Sid))) } })),
  };
}

const allowed = (ds: DeployDecision[]) => ds.filter((d) => d.decision !== 'ExplicitlyDenied' && d.decision !== 'ImplicitlyDenied').map((d) => `${d.action} ${d.resource} (${d.source}) ${d.decision}`);

describe('the preview fence: no production resource can be changed by a pull request', () => {
  const stages = productionStacks();

  for (const { stage, stacks } of stages) {
    it(`${stage}: every mutating handler action on every resource is denied to the preview role and to a preview stage's roles`, async () => {
      const roleCalls = await mutatingCalls(stacks, previewRole);
      const types = new Set(roleCalls.map((c) => c.source.split(' ')[1]));
      expect(roleCalls.length, stage).toBeGreaterThan(stage === 'account' ? 20 : 300);
      if (stage === 'prod') {
        for (const t of ['AWS::CloudFront::ResponseHeadersPolicy', 'AWS::CloudFront::OriginAccessControl', 'AWS::CloudWatch::Dashboard', 'AWS::Cognito::IdentityPool', 'AWS::Lambda::LayerVersion']) expect(types, t).toContain(t);
      }
      expect(allowed(await evaluateDecisions(`fence:${stage}`, roleCalls))).toEqual([]);
      const stageRoleCalls = roleCalls.map((c) => ({ ...c, principal: previewStageRole }));
      expect(allowed(await evaluateDecisions(`fence-boundary:${stage}`, stageRoleCalls))).toEqual([]);
    }, SLOW);
  }

  it('the account\'s API Gateway settings (Vigia-Account\'s CloudWatch role) are among them and denied', async () => {
    const calls = await mutatingCalls(oidc, previewRole);
    const account = calls.filter((c) => c.resource === 'arn:aws:apigateway:eu-west-1::/account');
    expect(account.map((c) => c.action).sort()).toEqual(expect.arrayContaining(['apigateway:PATCH']));
    for (const c of account) expect((await evaluate(previewRole, c)).result, c.action).toBe('ExplicitlyDenied');
  }, SLOW);

  it('no stack operation on a non-preview stack, and no resource import into a preview stack', async () => {
    for (const { stacks } of stages) {
      for (const s of stacks) {
        for (const action of STACK_ACTIONS.filter((a) => !/Describe|GetTemplate/.test(a))) {
          const d = await evaluate(previewRole, { action, resource: `arn:aws:cloudformation:${s.region}:${s.account}:stack/${s.stackName}/00000000-0000-0000-0000-000000000000` });
          expect(d.result, `${action} ${s.stackName}`).toBe('ExplicitlyDenied');
        }
      }
    }
    const previewStack = `arn:aws:cloudformation:eu-west-1:${FAKE_ACCOUNT}:stack/Vigia-pr-42-Hosting/00000000-0000-0000-0000-000000000000`;
    expect((await evaluate(previewRole, { action: 'cloudformation:CreateChangeSet', resource: previewStack })).result).toBe('Allowed');
    expect((await evaluate(previewRole, { action: 'cloudformation:CreateChangeSet', resource: previewStack, context: { 'cloudformation:ImportResourceTypes': ['AWS::CloudFront::ResponseHeadersPolicy'] } })).result).toBe('ExplicitlyDenied');
  }, SLOW);

  it('the untaggable CloudFront policies change only through CloudFormation (aws:CalledVia), never by a preview function', async () => {
    const rhp = `arn:aws:cloudfront::${FAKE_ACCOUNT}:response-headers-policy/0a1b2c3d-0000-0000-0000-000000000000`;
    const via = { 'aws:CalledVia': [CLOUDFORMATION_SERVICE] };
    expect((await evaluate(previewRole, { action: 'cloudfront:UpdateResponseHeadersPolicy', resource: rhp })).result).toBe('ExplicitlyDenied');
    expect((await evaluate(previewRole, { action: 'cloudfront:UpdateResponseHeadersPolicy', resource: rhp, context: via })).result).toBe('Allowed');
    expect((await evaluate(previewStageRole, { action: 'cloudfront:UpdateResponseHeadersPolicy', resource: rhp, context: via })).result).toBe('ExplicitlyDenied');
    expect((await evaluate(previewRole, { action: 'cloudwatch:PutDashboard', resource: `arn:aws:cloudwatch::${FAKE_ACCOUNT}:dashboard/vigia-pr-42-dashboard` })).result).toBe('Allowed');
  });
});

describe('the fence finds each gap again when its deny is removed', () => {
  it('without the new denies, the preview role may change prod\'s response headers policy, origin access control, dashboard, layers, identity pool, the API Gateway account setting, dev\'s untagged functions and the assets bucket', async () => {
    const before = without(previewRole, ['DenyNonPreviewDashboards', 'DenyNonPreviewLayers', 'DenyUntaggedCloudFront', 'DenyIdentityPoolsOutsideCloudFormation', 'DenyApiGatewayAccount', 'DenyNonPreviewFunctions', 'DenyAssetsBucketChanges']);
    const prod = synthStage({ stage: 'prod', env, edgeAlarms: true, overrides: PRODUCTION_OVERRIDES }).stacks;
    const dev = synthStage({ stage: 'dev', env }).stacks;
    const calls = [...(await mutatingCalls(prod, before)), ...(await mutatingCalls(dev, before)), ...(await mutatingCalls(oidc, before))];
    const gaps = allowed(await evaluateDecisions('fence:before', calls));
    for (const want of [
      /^cloudfront:UpdateResponseHeadersPolicy arn:aws:cloudfront::111111111111:response-headers-policy\//,
      /^cloudfront:DeleteOriginAccessControl /,
      /^cloudwatch:PutDashboard arn:aws:cloudwatch::111111111111:dashboard\/vigia-prod-dashboard /,
      /^lambda:DeleteLayerVersion arn:aws:lambda:eu-west-1:111111111111:layer:Vigia-prod-/,
      /^cognito-identity:SetIdentityPoolRoles \* /,
      /^apigateway:PATCH arn:aws:apigateway:eu-west-1::\/account /,
      /^lambda:InvokeFunction arn:aws:lambda:eu-west-1:111111111111:function:Vigia-dev-Hosting-CustomS3AutoDeleteObjects/,
      /^s3:DeleteBucket arn:aws:s3:::vigia-preview-assets-111111111111-eu-west-1 /,
    ]) expect(gaps.some((g) => want.test(g)), String(want)).toBe(true);
  }, SLOW);
});
