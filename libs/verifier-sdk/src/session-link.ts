/** What the QR code / deep link carries: the single-use session token and the API to talk to. */
export interface SessionLink {
  qrToken: string;
  apiBase: string;
}

export function parseSessionLink(link: string): SessionLink {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new Error('not a session link');
  }
  const qrToken = url.searchParams.get('session');
  const apiBase = url.searchParams.get('api');
  if (!qrToken || !apiBase) throw new Error('the session link lacks its session token or API address');
  if (!/^https?:\/\//.test(apiBase)) throw new Error('the session link names no http(s) API');
  return { qrToken, apiBase: apiBase.replace(/\/$/, '') };
}
