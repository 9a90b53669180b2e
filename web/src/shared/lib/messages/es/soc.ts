/** Spanish texts of `soc` (section `soc.*` of the catalogue, docs/portal.md#messages). */
export const soc = {};
