/** Spanish texts of `recommendations` (section `recommendations.*` of the catalogue, docs/portal.md#messages). */
export const recommendations = {};
