/**
 * IAM as AWS evaluates it, offline: the principals of a synthesized stage (each Lambda function's role with its
 * identity policies and permissions boundary, the collectors' managed policy) and the evaluation of one request
 * against them with `@cloud-copilot/iam-simulate`, a maintained IAM policy evaluator this project did not write
 * (identity policies, permissions boundaries, every condition operator; AWS IAM User Guide, "Policy evaluation
 * logic": an action is allowed only when an identity policy allows it, no policy denies it and, with a
 * boundary, the boundary allows it too).
 *
 * Used by the runtime check (`./recorder.ts`: every AWS call a function makes in the local stack and the test
 * suites) and the deploy-time check (`./deploy-iam.ts`).
 */
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { createResolver, type CfnResource, type SynthesizedStack } from './templates.js';

/** An IAM policy document (the JSON IAM stores). */
export interface PolicyDocument {
  Version?: string;
  Statement: unknown[] | unknown;
}

/** A principal as the evaluator sees it: who (an ARN), what its policies are, and its boundary. */
export interface IamPrincipal {
  /** What the reports call it, e.g. the function name `vigia-dev-incidents`. */
  name: string;
  /** The role's ARN (`arn:aws:iam::<account>:role/<name>`), or the policy's for a bare managed policy. */
  arn: string;
  account: string;
  identityPolicies: Array<{ name: string; policy: PolicyDocument }>;
  permissionsBoundary?: { name: string; policy: PolicyDocument } | undefined;
  /** AWS managed policies attached (ARNs): their content is not known offline, so a request they would allow is reported as denied. */
  awsManagedPolicies: string[];
}

/** One request to evaluate: the IAM action, the resource ARN and the request's condition keys. */
export interface IamRequest {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
}

/** The evaluator's answer for one request. */
export interface IamDecision {
  allowed: boolean;
  /** `Allowed`, `ImplicitlyDenied`, `ExplicitlyDenied`, or `Error: <message>` when the request itself was invalid. */
  result: string;
  /** Why, in AWS's words: `… because no identity-based policy allows the <action> action`. */
  reason: string;
}

type Resources = Record<string, CfnResource>;

function refId(v: unknown): string | undefined {
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.Ref === 'string') return o.Ref;
    const att = o['Fn::GetAtt'];
    if (Array.isArray(att) && att[1] === 'Arn') return String(att[0]);
  }
  return undefined;
}

/**
 * Every role of the stacks as an {@link IamPrincipal}, by role logical id and stack: its inline policies,
 * the `AWS::IAM::Policy` resources attached to it, customer managed policies found in any of `stacks` (by
 * resolved ARN) and its permissions boundary (likewise; e.g. the preview boundary of the OIDC stack).
 * @param stacks the stacks deployed together, plus any stack holding referenced managed policies
 */
export function rolePrincipals(stacks: readonly SynthesizedStack[]): Map<string, IamPrincipal> {
  const resolver = createResolver(stacks);
  const managed = new Map<string, PolicyDocument>();
  for (const s of stacks) {
    for (const [id, r] of Object.entries(s.template.Resources)) {
      if (r.Type !== 'AWS::IAM::ManagedPolicy') continue;
      managed.set(resolver.arnOf(s.stackName, id), resolver.resolve(r.Properties?.PolicyDocument, s.stackName) as PolicyDocument);
    }
  }
  const out = new Map<string, IamPrincipal>();
  for (const s of stacks) {
    const res: Resources = s.template.Resources;
    for (const [roleId, role] of Object.entries(res)) {
      if (role.Type !== 'AWS::IAM::Role') continue;
      const props = (role.Properties ?? {}) as Record<string, unknown>;
      const arn = resolver.arnOf(s.stackName, roleId);
      const identityPolicies: IamPrincipal['identityPolicies'] = [];
      const awsManagedPolicies: string[] = [];
      for (const p of (props.Policies as Array<{ PolicyName: string; PolicyDocument: unknown }> | undefined) ?? []) {
        identityPolicies.push({ name: p.PolicyName, policy: resolver.resolve(p.PolicyDocument, s.stackName) as PolicyDocument });
      }
      for (const [pid, p] of Object.entries(res)) {
        if (p.Type !== 'AWS::IAM::Policy') continue;
        const roles = (p.Properties?.Roles as unknown[] | undefined) ?? [];
        if (!roles.some((r) => refId(r) === roleId)) continue;
        identityPolicies.push({ name: pid, policy: resolver.resolve(p.Properties?.PolicyDocument, s.stackName) as PolicyDocument });
      }
      for (const m of (resolver.resolve(props.ManagedPolicyArns ?? [], s.stackName) as string[]) ?? []) {
        const doc = managed.get(m);
        if (doc) identityPolicies.push({ name: m, policy: doc });
        else awsManagedPolicies.push(m);
      }
      let permissionsBoundary: IamPrincipal['permissionsBoundary'];
      if (props.PermissionsBoundary !== undefined) {
        const b = String(resolver.resolve(props.PermissionsBoundary, s.stackName));
        const doc = managed.get(b);
        // A boundary whose document is not in the given stacks allows nothing the evaluator can prove.
        permissionsBoundary = { name: b, policy: doc ?? { Version: '2012-10-17', Statement: [] } };
      }
      out.set(`${s.stackName}/${roleId}`, { name: arn.split('/').pop()!, arn, account: s.account, identityPolicies, permissionsBoundary, awsManagedPolicies });
    }
  }
  return out;
}

/**
 * The principal of each Lambda function of the stacks, by its resolved `FunctionName` (functions without a
 * name, such as CDK's custom-resource providers, by `<stack>/<logical id>`).
 */
export function functionPrincipals(stacks: readonly SynthesizedStack[], extraStacks: readonly SynthesizedStack[] = []): Map<string, IamPrincipal> {
  const resolver = createResolver([...stacks, ...extraStacks]);
  const roles = rolePrincipals([...stacks, ...extraStacks]);
  const out = new Map<string, IamPrincipal>();
  for (const s of stacks) {
    for (const [id, r] of Object.entries(s.template.Resources)) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const roleId = refId(r.Properties?.Role);
      const role = roleId ? roles.get(`${s.stackName}/${roleId}`) : undefined;
      if (!role) continue;
      const name = r.Properties?.FunctionName !== undefined ? String(resolver.resolve(r.Properties.FunctionName, s.stackName)) : `${s.stackName}/${id}`;
      out.set(name, { ...role, name });
    }
  }
  return out;
}

/** A principal whose only identity policy is one customer managed policy of the stacks, found by its resolved name. */
export function managedPolicyPrincipal(stacks: readonly SynthesizedStack[], policyName: string, principalArn: string): IamPrincipal | undefined {
  const resolver = createResolver(stacks);
  for (const s of stacks) {
    for (const [, r] of Object.entries(s.template.Resources)) {
      if (r.Type !== 'AWS::IAM::ManagedPolicy') continue;
      if (resolver.resolve(r.Properties?.ManagedPolicyName, s.stackName) !== policyName) continue;
      return {
        name: policyName,
        arn: principalArn,
        account: s.account,
        identityPolicies: [{ name: policyName, policy: resolver.resolve(r.Properties?.PolicyDocument, s.stackName) as PolicyDocument }],
        awsManagedPolicies: [],
      };
    }
  }
  return undefined;
}

const ALL_ALLOWED = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] };

/**
 * Evaluates one request of `principal` (same-account: the resource's account is the principal's; no resource
 * policy, no SCP — the project's accounts have none) with iam-simulate. Validation errors of the request
 * (an unknown action, a resource ARN of the wrong type for the action, a context key the action does not take)
 * are reported as not allowed, with the evaluator's message.
 */
export async function evaluate(principal: IamPrincipal, request: IamRequest): Promise<IamDecision> {
  const simulation: Simulation = {
    request: {
      principal: principal.arn,
      action: request.action,
      resource: { resource: request.resource, accountId: principal.account },
      contextVariables: request.context ?? {},
    },
    identityPolicies: principal.identityPolicies.map((p) => ({ name: p.name, policy: p.policy as never })),
    serviceControlPolicies: [{ orgIdentifier: 'o-vigia', policies: [{ name: 'FullAWSAccess', policy: ALL_ALLOWED as never }] }],
    resourceControlPolicies: [],
    ...(principal.permissionsBoundary ? { permissionBoundaryPolicies: [{ name: principal.permissionsBoundary.name, policy: principal.permissionsBoundary.policy as never }] } : {}),
  } as Simulation;
  const response = await runSimulation(simulation, {});
  if (response.resultType === 'error') {
    return { allowed: false, result: `Error: ${JSON.stringify(response.errors)}`, reason: `the request is not valid IAM: ${JSON.stringify(response.errors)}` };
  }
  const result = String(response.overallResult);
  const allowed = result === 'Allowed';
  let reason = 'allowed';
  if (!allowed) {
    const analysis = response.resultType === 'single' ? (response.result.analysis as unknown as Record<string, unknown> | undefined) : undefined;
    const boundaryDenied = (analysis?.permissionBoundaryAnalysis as { result?: string } | undefined)?.result;
    if (result === 'ExplicitlyDenied') reason = `with an explicit deny in a policy`;
    else if (boundaryDenied && boundaryDenied !== 'Allowed') reason = `because no permissions boundary allows the ${request.action} action`;
    else reason = `because no identity-based policy allows the ${request.action} action`;
  }
  return { allowed, result, reason };
}

/**
 * AWS's AccessDenied message for a role session (AWS IAM User Guide, "Troubleshoot access denied error
 * messages"): `User: arn:aws:sts::<account>:assumed-role/<role>/<session> is not authorized to perform:
 * <action> on resource: <resource> <reason>`.
 */
export function accessDeniedMessage(principal: IamPrincipal, request: IamRequest, decision: IamDecision): string {
  const role = principal.arn.split('/').pop();
  return `User: arn:aws:sts::${principal.account}:assumed-role/${role}/${principal.name} is not authorized to perform: ${request.action} on resource: ${request.resource} ${decision.reason}`;
}
