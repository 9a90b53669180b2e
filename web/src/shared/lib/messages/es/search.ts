/** Spanish texts of `search` (section `search.*` of the catalogue, docs/portal.md#messages). */
export const search = {};
