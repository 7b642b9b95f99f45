import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discovered } from '../../common/discovery/discovered.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { BrokeredIdentity } from '../spi/eid-provider.js';
import { interactionExpired } from './login.errors.js';
import { type LoginCarrier, LoginCarrierProvider } from './login-carrier.js';
import { type LoginAnswer, LoginFrontDoors, type OwnedLogin } from './login-front-doors.js';
import { type LoginOwner, LoginOwnerSeal } from './login-owner-seal.js';

const MAX_UI_LOCALES = 200;

/** How a front door starts a brokered login. */
export interface LoginStart {
  /** The name the front door registered with (`@LoginFrontDoor(name)`): it answers the end. */
  frontDoor: string;
  clientId: string;
  scopes: string[];
  uiLocales?: string;
  /** A front door's login always authenticates: no earlier sign-in is reused for it. */
  prompt: 'login';
  /** The front door's own reference (its transaction), handed back at the end. */
  ownerRef: string;
}

/**
 * The one API through which a front door other than OIDC starts and finishes a brokered login. `begin` makes the
 * login's carrier (through the LoginCarrier: the engine's interaction, opened by a request stored server-side) with
 * the owner sealed into it and answers where to send the browser; at the end, the OIDC front door that holds the
 * interaction asks `ownerOf` and hands the identity or the failure to the owner, which answers as data. Such a login
 * never ends in an authorization code: it ends with its owner.
 */
@Injectable()
export class LoginRequests implements OnModuleInit {
  private readonly seal: LoginOwnerSeal;
  private carrier?: LoginCarrier;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly frontDoors: LoginFrontDoors,
    private readonly discovery: DiscoveryService,
  ) {
    this.seal = new LoginOwnerSeal(config.cookieKeys);
  }

  onModuleInit(): void {
    this.carrier = discovered<LoginCarrier>(this.discovery, LoginCarrierProvider)[0];
  }

  /** Starts a login owned by `start.frontDoor`; answers the address the browser goes to next (by 303). */
  async begin(start: LoginStart): Promise<{ location: string }> {
    if (!this.frontDoors.find(start.frontDoor)) throw new Error(`no front door is named ${start.frontDoor}`);
    if (!this.carrier) throw new Error('no login carrier (the OIDC front door) is loaded');
    const owner = this.seal.seal({ frontDoor: start.frontDoor, ownerRef: start.ownerRef, clientId: start.clientId });
    const location = await this.carrier.carry({
      clientId: start.clientId,
      scopes: start.scopes,
      prompt: start.prompt,
      owner,
      ...(start.uiLocales ? { uiLocales: start.uiLocales.slice(0, MAX_UI_LOCALES) } : {}),
    });
    return { location };
  }

  /**
   * The owner a login's carrier names, sealed by this core for this merchant. Undefined for the OIDC front door's own
   * logins (and for anything a merchant sent itself). A sealed owner whose front door is not loaded here is still the
   * owner: its login ends with an error, never with a code.
   */
  ownerOf(sealed: unknown, clientId: string): LoginOwner | undefined {
    return this.seal.open(sealed, clientId);
  }

  /** The owner's answer to its login's identity. */
  async identified(login: OwnedLogin, scheme: string, identity: BrokeredIdentity): Promise<LoginAnswer> {
    return this.frontDoorOf(login).identified({ login, scheme, identity });
  }

  /** The owner's answer to its login's failure (the user cancelled, the scheme failed). */
  async failed(login: OwnedLogin, error: string, description: string): Promise<LoginAnswer> {
    return this.frontDoorOf(login).failed({ login, error, description });
  }

  /** The owner's front door; one not loaded (turned off since the login began) ends the login as expired. */
  private frontDoorOf(login: OwnedLogin) {
    const frontDoor = this.frontDoors.find(login.frontDoor);
    if (!frontDoor) throw interactionExpired();
    return frontDoor;
  }
}
