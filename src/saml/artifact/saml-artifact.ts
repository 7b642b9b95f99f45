import { createHash, randomBytes } from 'node:crypto';

/** SAML 1.1 bindings §4.1.1.6: TypeCode 0x0001, then SourceID (20 bytes) and AssertionHandle (20 bytes). */
const TYPE_CODE = Buffer.from([0x00, 0x01]);
const PART_LENGTH = 20;
const ARTIFACT_LENGTH = TYPE_CODE.length + 2 * PART_LENGTH;

/**
 * Our SourceID: the SHA-1 of our entity ID, the convention by which Shibboleth-family service providers find
 * the issuing site (and its ArtifactResolutionService) in metadata. SHA-1 is a name here, not a security check.
 */
export function sourceIdOf(entityId: string): Buffer {
  return createHash('sha1').update(entityId, 'utf8').digest();
}

/** A fresh type 0x0001 artifact (Base64) and its assertion handle (20 random bytes: 160 bits nobody can guess). */
export function newArtifact(entityId: string): { artifact: string; handle: Buffer } {
  const handle = randomBytes(PART_LENGTH);
  return { artifact: Buffer.concat([TYPE_CODE, sourceIdOf(entityId), handle]).toString('base64'), handle };
}

/**
 * The assertion handle of an artifact we issued, or undefined for anything else (another type, another
 * source, a wrong length, not Base64): such an artifact names nothing here.
 */
export function handleOf(artifact: string, entityId: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(artifact) || artifact.length > 64) return undefined;
  const bytes = Buffer.from(artifact, 'base64');
  if (bytes.length !== ARTIFACT_LENGTH || !bytes.subarray(0, 2).equals(TYPE_CODE)) return undefined;
  if (!bytes.subarray(2, 2 + PART_LENGTH).equals(sourceIdOf(entityId))) return undefined;
  return bytes.subarray(2 + PART_LENGTH);
}

/**
 * The stored key of an artifact: a hash of its handle, so the table alone (a backup, a read-only leak) holds
 * nothing a merchant could present.
 */
export function artifactKey(handle: Buffer): string {
  return createHash('sha256').update(handle).digest('hex');
}
