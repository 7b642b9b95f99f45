import type { AppConfig } from '../config/load-config.js';

/** Paths of the SAML front door, relative to BASE_URL. */
export const SAML_PATHS = {
  metadata: '/saml/metadata',
  /** Browser/Artifact resolution, SOAP 1.1 (the metadata's ArtifactResolutionService). */
  artifactResolution: '/saml/artifact',
  /** The front door the real service of this family uses; shared with the OIDC authorization endpoint. */
  sso: '/its/index.html',
} as const;

/** Our entity ID: the metadata's URL (the well-known-location convention), the Issuer of every assertion. */
export function samlEntityId(config: Pick<AppConfig, 'baseUrl'>): string {
  return `${config.baseUrl}${SAML_PATHS.metadata}`;
}
