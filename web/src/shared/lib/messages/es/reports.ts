/** Spanish texts of `reports` (section `reports.*` of the catalogue, docs/portal.md#messages). */
export const reports = {};
