/** Spanish texts of `analytics` (section `analytics.*` of the catalogue, docs/portal.md#messages). */
export const analytics = {};
