/** A small typed helper over fetch for the admin API in tests. */
export function adminClient(baseUrl: string, token: string) {
  const call = async (method: string, path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text, headers: res.headers };
  };
  return {
    call,
    createMerchant: async (fields: Record<string, unknown>) => {
      const res = await call('POST', '/admin/v1/merchants', fields);
      if (res.status !== 201) throw new Error(`merchant creation failed: ${res.status} ${res.text}`);
      return res.body as { client_id: string; client_secret: string } & Record<string, unknown>;
    },
  };
}
