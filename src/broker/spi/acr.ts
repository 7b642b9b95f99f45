/** Level of assurance values (spec 2.1, 5.8). */
export const ACR_REQUEST_HIGH = 'urn:svc:acrp:level:high';
export const ACR_EIDAS_HIGH = 'urn:svc:cert:eidas:high';
/** acr_values entry that preselects a scheme on the broker page: `urn:svc:eid:<scheme id>` (our extension). */
export const ACR_SCHEME_PREFIX = 'urn:svc:eid:';
