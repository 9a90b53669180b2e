/** Spanish texts of `devices` (section `devices.*` of the catalogue, docs/portal.md#messages). */
export const devices = {};
