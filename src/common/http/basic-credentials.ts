/** HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-urlencoded before Base64). */
export function parseBasicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}
