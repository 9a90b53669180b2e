/** Spanish texts of `office365` (section `office365.*` of the catalogue, docs/portal.md#messages). */
export const office365 = {};
