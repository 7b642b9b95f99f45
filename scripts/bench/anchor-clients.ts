/** The bare-engine anchor's static clients (shared by the anchor server and the benchmark that drives it). */
export const ANCHOR_REDIRECT_URI = 'http://localhost:8080/callback';
export const ANCHOR_CLIENTS: { client_id: string; client_secret: string; id_token_signed_response_alg: 'RS256' | 'ES256' }[] = [
  { client_id: 'anchor-rs256', client_secret: 'anchor-rs256-secret-0123456789abcdef', id_token_signed_response_alg: 'RS256' },
  { client_id: 'anchor-es256', client_secret: 'anchor-es256-secret-0123456789abcdef', id_token_signed_response_alg: 'ES256' },
];
