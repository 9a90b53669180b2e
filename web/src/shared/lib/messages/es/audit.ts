/** Spanish texts of `audit` (section `audit.*` of the catalogue, docs/portal.md#messages). */
export const audit = {};
