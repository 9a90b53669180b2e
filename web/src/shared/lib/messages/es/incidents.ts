/** Spanish texts of `incidents` (section `incidents.*` of the catalogue, docs/portal.md#messages). */
export const incidents = {};
