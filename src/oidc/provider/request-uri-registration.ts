/**
 * Whether a request_uri is one the merchant registered (OIDC Core §6.2, registration `request_uris`).
 * A registered value matches exactly, or, when it ends with '/', as a prefix: every URL under that path
 * (one per request, as §6.2 suggests for changing content). The fragment (§6.2's content hash) is
 * ignored on both sides; the candidate is parsed first, so dot segments cannot climb out of a prefix.
 */
export function isRegisteredRequestUri(registered: readonly string[], requestUri: string): boolean {
  const candidate = normalise(requestUri);
  if (!candidate) return false;
  return registered.some((value) => {
    const allowed = normalise(value);
    if (!allowed) return false;
    // The registered text decides (not its parsed form: 'https://rp.example' parses to '…/' but is exact).
    return value.endsWith('/') ? candidate.startsWith(allowed) : candidate === allowed;
  });
}

function normalise(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.username || url.password) return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}
