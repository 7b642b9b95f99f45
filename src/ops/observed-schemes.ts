import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ObservedScheme, type SchemeObservations } from '../broker/spi/scheme-observations.js';
import { discovered } from '../common/discovery/discovered.js';

/** What the running schemes offer operations (their providers marked ObservedScheme), found once every provider exists. */
@Injectable()
export class ObservedSchemes {
  private found?: SchemeObservations[];

  constructor(private readonly discovery: DiscoveryService) {}

  all(): SchemeObservations[] {
    return (this.found ??= discovered<SchemeObservations>(this.discovery, ObservedScheme));
  }
}
