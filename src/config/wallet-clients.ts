/**
 * The wallets that may use the credential issuer's authorization code flow (OpenID4VCI 1.0 §5), as the operator
 * registers them in VCI_WALLET_CLIENTS: `[{"client_id": "…", "redirect_uris": ["…"]}]`. Public clients (PKCE S256);
 * a redirect URI is matched exactly. Registration is what stops a phisher's link from sending a person's freshly
 * verified identity to a wallet of the phisher's (the code goes only to a registered redirect URI).
 */
export interface WalletClient {
  clientId: string;
  redirectUris: string[];
}

const CLIENT_ID = /^[\x21-\x7e]{1,200}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Parses VCI_WALLET_CLIENTS; each problem is one line naming the variable. */
export function parseWalletClients(raw: string | undefined, isProduction: boolean): { clients: WalletClient[]; problems: string[] } {
  if (raw === undefined || raw.trim() === '') return { clients: [], problems: [] };
  const problem = (text: string) => ({ clients: [], problems: [`VCI_WALLET_CLIENTS: ${text}`] });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return problem('is not JSON (a list of {"client_id", "redirect_uris"})');
  }
  if (!Array.isArray(value) || value.length > 50) return problem('must be a JSON array of at most 50 clients');
  const clients: WalletClient[] = [];
  for (const [i, entry] of value.entries()) {
    const e = entry as { client_id?: unknown; redirect_uris?: unknown };
    if (typeof e?.client_id !== 'string' || !CLIENT_ID.test(e.client_id)) return problem(`client ${i}: client_id must be 1-200 printable ASCII characters`);
    if (!Array.isArray(e.redirect_uris) || e.redirect_uris.length === 0 || e.redirect_uris.length > 10)
      return problem(`client ${i}: redirect_uris must list 1 to 10 URIs`);
    for (const uri of e.redirect_uris)
      if (!acceptableRedirect(uri, isProduction))
        return problem(
          `client ${i}: ${String(uri).slice(0, 100)} is not an https URI, a claimed app scheme, or (customer-test) loopback http, without fragment`,
        );
    if (clients.some((c) => c.clientId === e.client_id)) return problem(`client ${i}: client_id ${e.client_id} is listed twice`);
    clients.push({ clientId: e.client_id, redirectUris: e.redirect_uris as string[] });
  }
  return { clients, problems: [] };
}

/** RFC 8252 §7: https, a private-use scheme of the wallet app, or loopback http (customer-test only); never a fragment. */
function acceptableRedirect(uri: unknown, isProduction: boolean): boolean {
  if (typeof uri !== 'string' || uri.length > 2000 || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return !isProduction && LOOPBACK.has(url.hostname);
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}
