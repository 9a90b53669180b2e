/** Spanish texts of `dashboard` (section `dashboard.*` of the catalogue, docs/portal.md#messages). */
export const dashboard = {};
