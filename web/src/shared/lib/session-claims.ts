/** Claims of the portal's ID tokens as the user pool and API Gateway spell them (docs/portal.md#identity). */

/**
 * Parses `cognito:groups` defensively: an array, or one string in comma-separated, space-separated
 * or `[a b]` form (how API Gateway's Cognito authorizer flattens it; docs/portal.md#identity).
 */
export function parseGroups(claim: unknown): string[] {
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string' && g !== '');
  if (typeof claim !== 'string') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

