import { Inject, Injectable } from '@nestjs/common';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { samlEntityId } from '../saml-entity.js';
import { artifactKey, handleOf, newArtifact } from './saml-artifact.js';
import { SamlArtifactEntity } from './saml-artifact.entity.js';

/** The Browser/Artifact profile's lifetime of an artifact (issue 12): the merchant resolves it at once. */
export const ARTIFACT_TTL_SECONDS = 60;
const context = (key: string) => `saml-artifact:${key}`;

export type ResolveOutcome = { assertion: string } | { refused: 'unknown' | 'other_merchant' | 'expired' | 'used' };

/** Issues artifacts for signed assertions and resolves each once, for the merchant it was made for only. */
@Injectable()
export class SamlArtifactsService {
  private readonly repo: Repository<SamlArtifactEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(SamlArtifactEntity);
  }

  async issue(clientId: string, signedAssertion: string): Promise<string> {
    const { artifact, handle } = newArtifact(samlEntityId(this.config));
    const key = artifactKey(handle);
    await this.repo.insert({
      handleHash: key,
      clientId,
      assertionSealed: this.secretBox.encrypt(signedAssertion, context(key)),
      expiresAt: new Date(Date.now() + ARTIFACT_TTL_SECONDS * 1000),
    });
    return artifact;
  }

  /**
   * One conditional UPDATE marks the artifact resolved and answers its assertion: of two racing requests one
   * wins. Another merchant's attempt does not use it up (it stays its merchant's; the attempt is logged by
   * the caller). The reason of a refusal is for our logs; the merchant is told one thing for all of them.
   */
  async resolve(artifact: string, clientId: string): Promise<ResolveOutcome> {
    const handle = handleOf(artifact, samlEntityId(this.config));
    if (!handle) return { refused: 'unknown' };
    const key = artifactKey(handle);
    const [rows]: [{ assertion_sealed: string }[], number] = await this.repo.query(
      `UPDATE saml_artifacts SET resolved_at = now()
       WHERE handle_hash = $1 AND client_id = $2 AND resolved_at IS NULL AND expires_at > now()
       RETURNING assertion_sealed`,
      [key, clientId],
    );
    if (rows[0]) return { assertion: this.secretBox.decryptText(rows[0].assertion_sealed, context(key)) };
    const row = await this.repo.findOneBy({ handleHash: key });
    if (!row) return { refused: 'unknown' };
    if (row.clientId !== clientId) return { refused: 'other_merchant' };
    return { refused: row.resolvedAt ? 'used' : 'expired' };
  }

  /** The merchant an artifact was issued to (resolved or not), to check a certificate against; no assertion is read. */
  async ownerOf(artifact: string): Promise<string | undefined> {
    const handle = handleOf(artifact, samlEntityId(this.config));
    if (!handle) return undefined;
    return (await this.repo.findOne({ where: { handleHash: artifactKey(handle) }, select: { clientId: true } }))?.clientId;
  }

  async purgeExpired(now = new Date()): Promise<number> {
    return (await this.repo.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
