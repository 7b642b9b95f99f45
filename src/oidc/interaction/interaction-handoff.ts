import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { BrokeredIdentity } from '../../eid/eid-provider.js';

/**
 * Another front door (SAML 1.1) that runs its logins as authorization requests of the engine, so that the
 * broker pages and eID schemes run unchanged, and takes over the end of those interactions: the broker
 * hands it the brokered identity (or the failure) instead of finishing the engine's interaction, which
 * would redirect to the merchant's OIDC redirect URI.
 */
export interface InteractionHandoff {
  /** Whether the interaction's authorization request is one this front door made (and still waits for). */
  owns(params: Readonly<Record<string, unknown>>): Promise<boolean>;
  identified(req: Request, res: Response, params: Readonly<Record<string, unknown>>, scheme: string, identity: BrokeredIdentity): Promise<void>;
  failed(req: Request, res: Response, params: Readonly<Record<string, unknown>>, error: string, description: string): Promise<void>;
}

/** Where front doors register; the OIDC module does not import them (they depend on it, not the reverse). */
@Injectable()
export class InteractionHandoffs {
  private readonly handoffs: InteractionHandoff[] = [];

  register(handoff: InteractionHandoff): void {
    this.handoffs.push(handoff);
  }

  async find(params: Readonly<Record<string, unknown>>): Promise<InteractionHandoff | undefined> {
    for (const h of this.handoffs) if (await h.owns(params)) return h;
    return undefined;
  }
}
