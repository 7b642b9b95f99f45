import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discovered, extensionPoint } from '../../common/discovery/discovered.js';
import type { Request, Response } from 'express';
import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';

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

/** Marks a front door's provider that takes over the end of the logins it started (an InteractionHandoff). */
export const LoginHandoff = extensionPoint();

/** The hand-offs of the other front doors, found by their mark; the OIDC module does not import them (they depend on it). */
@Injectable()
export class InteractionHandoffs implements OnModuleInit {
  private handoffs: InteractionHandoff[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    this.handoffs = discovered<InteractionHandoff>(this.discovery, LoginHandoff);
  }

  async find(params: Readonly<Record<string, unknown>>): Promise<InteractionHandoff | undefined> {
    for (const h of this.handoffs) if (await h.owns(params)) return h;
    return undefined;
  }
}
