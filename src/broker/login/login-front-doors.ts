import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discoveredWith, extensionPoint } from '../../common/discovery/discovered.js';
import type { UiLocale } from '../../i18n/locales.js';
import type { BrokeredIdentity } from '../spi/eid-provider.js';

/** A login a front door started through the core (LoginRequests.begin), as the core hands it back at its end. */
export interface OwnedLogin {
  /** The front door that started it, by the name it registered with (`@LoginFrontDoor('saml')`). */
  frontDoor: string;
  /** The front door's own reference (its transaction), as it gave it to `begin`. */
  ownerRef: string;
  clientId: string;
  /** The language the broker pages spoke (request, browser, merchant's default): the answer's page speaks it too. */
  locale: UiLocale;
}

/**
 * How the front door ends a login, as data: the OIDC front door, which holds the browser's request, writes it.
 * `headers` are set as they are (say Cache-Control). An answer is never an error: a failure that the front door
 * cannot send to its merchant is an AppError it throws, rendered by the one error renderer.
 */
export type LoginAnswer =
  | { kind: 'redirect'; status: 302 | 303; location: string; headers?: Record<string, string> }
  | { kind: 'page'; status: 200; html: string; headers?: Record<string, string> };

/**
 * A front door (SAML, the credential issuer) that starts brokered logins through the core and answers their end
 * itself: data in, data out; it never sees the browser's request or response.
 */
export interface LoginFrontDoor {
  identified(end: { login: OwnedLogin; scheme: string; identity: BrokeredIdentity }): Promise<LoginAnswer>;
  failed(end: { login: OwnedLogin; error: string; description: string }): Promise<LoginAnswer>;
}

/** Marks a front door's provider that answers the end of the logins it started, under its name (one per name). */
export const LoginFrontDoor = extensionPoint<string>();

/** The front doors that start brokered logins, by name; found by their mark, so the core imports none of them. */
@Injectable()
export class LoginFrontDoors implements OnModuleInit {
  private readonly byName = new Map<string, LoginFrontDoor>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const { instance, options: name } of discoveredWith<LoginFrontDoor, string>(this.discovery, LoginFrontDoor)) this.register(name, instance);
  }

  register(name: string, frontDoor: LoginFrontDoor): void {
    if (this.byName.has(name)) throw new Error(`two front doors are named ${name}`);
    this.byName.set(name, frontDoor);
  }

  find(name: string): LoginFrontDoor | undefined {
    return this.byName.get(name);
  }
}
