/**
 * Optional AWS WAF protection of the business API (stage flag `waf`, on for prod and staging): a regional
 * web ACL associated with the API Gateway stage. Added to the Api stack by `vigia-app.ts` so `api-stack.ts`
 * stays unchanged.
 *
 * Rules (evaluated in priority order; default action allow):
 *  0. `RateLimitPerIp` — block an IP above `wafRateLimitPer5Min` requests per 5-minute window
 *     (WAF rate-based rule; the API's own stage throttling still applies to everyone together);
 *  1. `AWSManagedRulesAmazonIpReputationList` — known malicious sources;
 *  2. `AWSManagedRulesCommonRuleSet` — OWASP-style generic protections (body size rule counted only:
 *     API Gateway already caps bodies and the incident API accepts JSON bodies above 8 KB);
 *  3. `AWSManagedRulesKnownBadInputsRuleSet` — Log4j / known exploit patterns.
 * The managed rule groups (1–3) are scoped down to requests whose URI path does NOT start with
 * `/<stage>/ingest/` ({@link ingestPathPrefix}): collectors send security data (Office 365 alerts, device
 * alarms) that legitimately quotes XSS, SQL or Log4j payloads, which the managed rules would block and lose.
 * Those routes are SigV4-authorised (IAM) and keep the per-IP rate limit (docs/platform.md#waf).
 * Every rule publishes CloudWatch metrics named `vigia-<stage>-waf-<rule>` and samples requests; the web
 * ACL's `BlockedRequests` metric (rule `ALL`) is alarmed by the Monitoring stack.
 * Source: AWS WAF developer guide, "AWS Managed Rules rule groups list" and "Scope-down statements".
 */
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { physicalName } from './stage-config.js';

export interface ApiWafProps {
  readonly stage: string;
  /** ARN of the API Gateway stage (`RestApi.deploymentStage.stageArn`). */
  readonly apiStageArn: string;
  /** Requests per 5 minutes per IP before blocking (WAF minimum 10). */
  readonly rateLimitPer5Min: number;
}

/** Names of the AWS managed rule groups, in priority order after the rate rule. */
export const WAF_MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
] as const;

/**
 * URI path prefix of the collector ingest routes as WAF sees it on the execute-api endpoint: the path
 * includes the API stage name, e.g. `/prod/ingest/`.
 */
export function ingestPathPrefix(stage: string): string {
  return `/${stage}/ingest/`;
}

/** Scope-down statement: every request whose URI path does not start with {@link ingestPathPrefix}. */
export function notIngestStatement(stage: string): CfnWebACL.StatementProperty {
  return {
    notStatement: {
      statement: {
        byteMatchStatement: {
          fieldToMatch: { uriPath: {} },
          positionalConstraint: 'STARTS_WITH',
          searchString: ingestPathPrefix(stage),
          textTransformations: [{ priority: 0, type: 'NONE' }],
        },
      },
    },
  };
}

/** Name of the web ACL of a stage (the `WebACL` dimension of its CloudWatch metrics). */
export function webAclName(stage: string): string {
  return physicalName(stage, 'api-waf');
}

export class ApiWaf extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWafProps) {
    super(scope, id);
    const metric = (name: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: physicalName(props.stage, `waf-${name}`),
    });
    const managed: CfnWebACL.RuleProperty[] = WAF_MANAGED_RULE_GROUPS.map((name, i) => ({
      name,
      priority: i + 1,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(name === 'AWSManagedRulesCommonRuleSet'
            ? { ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }] }
            : {}),
          scopeDownStatement: notIngestStatement(props.stage),
        },
      },
      visibilityConfig: metric(name),
    }));

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: webAclName(props.stage),
      description: `Vigia API ${props.stage} - AWS managed rules and per-IP rate limit`, // WAF allows no accents or parentheses
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: metric('api'),
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: props.rateLimitPer5Min, aggregateKeyType: 'IP' } },
          visibilityConfig: metric('rate-limit'),
        },
        ...managed,
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.apiStageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
