import { createHmac } from 'node:crypto';

/**
 * Pairwise subjects (OIDC Core §8.1): the HMAC of the sector and the person's subject under PAIRWISE_SECRET.
 * The SAML front door names the person with the same value, so a merchant sees one subject per person
 * whichever protocol it uses.
 */
export function pairwiseSubject(secret: string, sector: string, sub: string): string {
  return createHmac('sha256', secret).update(`${sector}:${sub}`).digest('base64url');
}

/** The engine's sector for a merchant (no sector_identifier_uri is offered): its first redirect URI's host. */
export function merchantSector(redirectUris: readonly string[]): string {
  return new URL(redirectUris[0]).host;
}
