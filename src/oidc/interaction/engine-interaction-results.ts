import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { InteractionResults } from 'oidc-provider';
import { engineClaims } from '../provider/provider-configuration.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import { splitClaimsByScope } from './interaction-context.js';
import { interactionExpired } from '../../broker/login/login.errors.js';

/** The engine's claims by scope: verified_claims and the broker's own claims come with openid (their content is masked by scope). */
const CLAIMS_BY_SCOPE = engineClaims();

export type InteractionDetails = Awaited<ReturnType<OidcProviderService['engine']['interactionDetails']>>;

/** How a broker page ends the engine's interaction: the grant with implicit consent, and the result it redirects with. */
@Injectable()
export class EngineInteractionResults {
  constructor(private readonly oidc: OidcProviderService) {}

  /** A grant of the merchant's scopes for the account, with the claims asked for by name within them; answers its id. */
  async newGrant(accountId: string, clientId: string, scopes: string[], claims: string[]): Promise<string> {
    const grant = new this.oidc.engine.Grant({ accountId, clientId });
    grant.addOIDCScope(scopes.join(' '));
    this.consentClaims(grant, claims, scopes);
    return grant.save();
  }

  /** Consent is implicit for the merchant's registered scopes (architecture step 4). */
  async finishConsent(res: Response, details: InteractionDetails): Promise<void> {
    const { Grant } = this.oidc.engine;
    const grant = details.grantId
      ? await Grant.find(details.grantId)
      : new Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    if (!grant) throw interactionExpired();
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    this.consentClaims(grant, missing.missingOIDCClaims ?? [], String(details.params.scope ?? '').split(' '));
    const grantId = await grant.save();
    await this.finish(res, details, { consent: { grantId } });
  }

  /** Claims asked for by name are consented only within the granted scopes; the rest are rejected, not asked again. */
  private consentClaims(grant: InstanceType<OidcProviderService['engine']['Grant']>, claims: string[], scopes: string[]): void {
    const { consented, rejected } = splitClaimsByScope(claims, scopes, CLAIMS_BY_SCOPE);
    if (consented.length) grant.addOIDCClaims(consented);
    if (rejected.length) grant.rejectOIDCClaims(rejected);
  }

  /** The engine's interactionFinished (without merging the last submission), on the interaction already loaded. */
  async finish(res: Response, interaction: InteractionDetails, result: InteractionResults): Promise<void> {
    const returnTo = await this.saveResult(interaction, result);
    res.statusCode = 303;
    res.setHeader('Location', returnTo);
    res.setHeader('Content-Length', '0');
    res.end();
  }

  /**
   * The engine's interactionResult on the interaction this request loaded: the engine's own looks it up again by
   * its cookie, one more database round trip per login, to set the same result on the same row. Nothing between
   * the load and here saves the interaction (a handoff destroys it and never gets here).
   */
  async saveResult(interaction: InteractionDetails, result: InteractionResults): Promise<string> {
    interaction.result = result;
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return interaction.returnTo;
  }
}
