/** Spanish texts of `calendar` (section `calendar.*` of the catalogue, docs/portal.md#messages). */
export const calendar = {};
