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
 * Every rule publishes CloudWatch metrics named `vigia-<stage>-waf-<rule>` and samples requests.
 * Source: AWS WAF developer guide, "AWS Managed Rules rule groups list".
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
        },
      },
      visibilityConfig: metric(name),
    }));

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: physicalName(props.stage, 'api-waf'),
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
