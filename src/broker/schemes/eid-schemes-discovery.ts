import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discovered, discoveredWith } from '../../common/discovery/discovered.js';
import { EidScheme, type EidProvider, type EidSchemeSource, EidSchemeSourceProvider } from '../spi/eid-provider.js';
import { EidRegistry } from './eid-registry.js';

/**
 * Fills the registry once every provider exists: the schemes marked @EidScheme() (the document verifier, the
 * test eID in customer-test) and the sources marked @EidSchemeSourceProvider() (upstream OpenID providers).
 */
@Injectable()
export class EidSchemesDiscovery implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly registry: EidRegistry,
  ) {}

  onModuleInit(): void {
    const schemes = discoveredWith<EidProvider, { order: number }>(this.discovery, EidScheme);
    this.registry.addBuiltIn(schemes.sort((a, b) => a.options.order - b.options.order).map(({ instance }) => instance));
    for (const source of discovered<EidSchemeSource>(this.discovery, EidSchemeSourceProvider)) this.registry.addSource(source);
  }
}
