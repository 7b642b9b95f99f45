import { type DiscoverableDecorator, DiscoveryService } from '@nestjs/core';

/**
 * The one way a higher room plugs into a lower one: the lower room declares an extension point as a
 * decorator (`DiscoveryService.createDecorator()`), the higher room's provider wears it, and the lower room
 * collects the instances once every provider exists (in `onModuleInit`). The lower room imports nothing of
 * the higher one, and nothing calls a `register()`.
 */
export function discovered<T>(discovery: DiscoveryService, point: DiscoverableDecorator<void>): T[] {
  return discovery
    .getProviders({ metadataKey: point.KEY })
    .map((wrapper) => wrapper.instance as T | undefined)
    .filter((instance): instance is T => instance !== undefined && instance !== null);
}

export function extensionPoint(): DiscoverableDecorator<void> {
  return DiscoveryService.createDecorator<void>();
}
