/**
 * CloudFormation stack policies that refuse the replacement of the stateful resources of a stage: the
 * Cognito user pool (Auth stack) and the DynamoDB table (Data stack).
 *
 * Why: the stacks share values by weak cross-stack references (no exports, so no export deadlocks), which
 * also means a replaced user pool or table would NOT be propagated to the Api and PortalDeployment stacks;
 * and a replaced user pool loses every user, a replaced table every item. CDK has no stack-policy property,
 * so `scripts/platform/deploy.ts` applies {@link STATEFUL_STACK_POLICY} with `cloudformation
 * set-stack-policy` to {@link guardedStackNames} after each deploy of a production stage, and CI fails a `cdk diff` that would replace them (`scripts/platform/replacements.ts`).
 * A stack policy denies `Update:Replace` for the listed logical resource ids during every later update
 * (AWS CloudFormation user guide, "Prevent updates to stack resources"). docs/platform.md#replacements.
 */
import { stackName, type StageConfig } from './stage-config.js';

/** CloudFormation resource types whose replacement is refused (by policy and by the diff check). */
export const GUARDED_RESOURCE_TYPES = ['AWS::Cognito::UserPool', 'AWS::DynamoDB::Table'] as const;

/** A stack policy document (JSON shape of `SetStackPolicy`'s `StackPolicyBody`). */
export interface StackPolicyDocument {
  readonly Statement: ReadonlyArray<{
    readonly Effect: 'Allow' | 'Deny';
    readonly Action: string;
    readonly Principal: '*';
    readonly Resource: string;
    readonly Condition?: { readonly StringEquals: { readonly ResourceType: readonly string[] } };
  }>;
}

/**
 * The stack policy of every stack of a production stage: all updates allowed except `Update:Replace` of a
 * resource of a {@link GUARDED_RESOURCE_TYPES} type (matched by the policy's `ResourceType` condition, so it
 * needs no logical ids and is the same for every stack).
 */
export const STATEFUL_STACK_POLICY: StackPolicyDocument = {
  Statement: [
    { Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' },
    {
      Effect: 'Deny',
      Action: 'Update:Replace',
      Principal: '*',
      Resource: '*',
      Condition: { StringEquals: { ResourceType: [...GUARDED_RESOURCE_TYPES] } },
    },
  ],
};

/** Whether a stage gets {@link STATEFUL_STACK_POLICY} (production stages: their data must survive). */
export function stageHasStackPolicy(config: StageConfig): boolean {
  return config.profile === 'production';
}

/** Names of the stacks of a stage that hold guarded resources (`Vigia-<stage>-Auth`, `Vigia-<stage>-Data`). */
export function guardedStackNames(stage: string): string[] {
  return [stackName(stage, 'Auth'), stackName(stage, 'Data')];
}
