/** Spanish texts of `ui` (section `ui.*` of the catalogue, docs/portal.md#messages). */
export const ui = {};
