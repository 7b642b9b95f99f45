/**
 * The SP-initiated request URLs of the two service providers merchants run, built the way their code builds
 * them from our metadata's SingleSignOnService Location (read in their source; the real SPs send them in
 * shibboleth-sp.e2e-spec.ts and simplesamlphp-sp.e2e-spec.ts, where Debian's packages are installed).
 */

/** The Location of our endpoint for Shibboleth's AuthnRequest profile, as an SP picks it from metadata. */
export function ssoLocationFromMetadata(metadata: string): string {
  const m = /<md:SingleSignOnService Binding="urn:mace:shibboleth:1\.0:profiles:AuthnRequest" Location="([^"]+)"\/>/.exec(metadata);
  if (!m) throw new Error('no Shibboleth AuthnRequest SingleSignOnService in the metadata');
  return m[1].replace(/&amp;/g, '&');
}

/**
 * Shibboleth SP 3, Shib1SessionInitiator::doRequest: Location + ('?' or '&' when it already has a query) +
 * shire, time (Unix seconds), target (the relay state, "default" when empty), providerId; no mid.
 */
export function shibbolethShib1Url(location: string, p: { shire: string; target: string; providerId: string; time?: number }): string {
  const time = p.time ?? Math.floor(Date.now() / 1000);
  return `${location}${location.includes('?') ? '&' : '?'}shire=${enc(p.shire)}&time=${time}&target=${enc(p.target || 'default')}&providerId=${enc(p.providerId)}`;
}

/**
 * SimpleSAMLphp 1.19, SP startSSO1 → Shib13\AuthnRequest::createRedirect: Location + '?' (appended blindly)
 * + providerId, shire, target (its state id), PHP urlencode; no time, no mid. redirectTrustedURL adds nothing.
 */
export function simpleSamlPhpShib13Url(location: string, p: { providerId: string; shire: string; target?: string }): string {
  return `${location}?providerId=${phpUrlencode(p.providerId)}&shire=${phpUrlencode(p.shire)}${p.target !== undefined ? `&target=${phpUrlencode(p.target)}` : ''}`;
}

const enc = encodeURIComponent;

/** PHP's urlencode: like encodeURIComponent but also !'()*~ escaped and space as '+'. */
function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
