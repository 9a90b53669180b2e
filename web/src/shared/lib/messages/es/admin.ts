/** Spanish texts of `admin` (section `admin.*` of the catalogue, docs/portal.md#messages). */
export const admin = {};
