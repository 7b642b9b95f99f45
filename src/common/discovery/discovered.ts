import { type DiscoverableDecorator, DiscoveryService } from '@nestjs/core';

/**
 * The one way a higher room plugs into a lower one: the lower room declares an extension point as a
 * decorator (`DiscoveryService.createDecorator()`), the higher room's provider wears it, and the lower room
 * collects the instances once every provider exists (in `onModuleInit`). The lower room imports nothing of
 * the higher one, and nothing calls a `register()`.
 */
export function discovered<T>(discovery: DiscoveryService, point: DiscoverableDecorator<void>): T[] {
  return discoveredWith<T, void>(discovery, point).map(({ instance }) => instance);
}

/** The instances with the options each wore its mark with (e.g. an order), in discovery order. */
export function discoveredWith<T, O>(discovery: DiscoveryService, point: DiscoverableDecorator<O>): { instance: T; options: O }[] {
  return discovery
    .getProviders({ metadataKey: point.KEY })
    .filter((wrapper) => wrapper.instance !== undefined && wrapper.instance !== null)
    .map((wrapper) => ({ instance: wrapper.instance as T, options: discovery.getMetadataByDecorator(point, wrapper) as O }));
}

export function extensionPoint<O = void>(): DiscoverableDecorator<O> {
  return DiscoveryService.createDecorator<O>();
}
