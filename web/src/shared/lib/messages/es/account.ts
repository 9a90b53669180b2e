/** Spanish texts of `account` (section `account.*` of the catalogue, docs/portal.md#messages). */
export const account = {};
