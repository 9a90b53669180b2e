/** Spanish texts of `settings` (section `settings.*` of the catalogue, docs/portal.md#messages). */
export const settings = {};
