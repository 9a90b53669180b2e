/** Spanish texts of `notifications` (section `notifications.*` of the catalogue, docs/portal.md#messages). */
export const notifications = {};
