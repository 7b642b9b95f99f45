import type { DiscoveryService } from '@nestjs/core';
import type { AppConfig } from '../../config/load-config.js';
import type { BrokeredIdentity } from '../spi/eid-provider.js';
import type { CarriedLogin, LoginCarrier } from './login-carrier.js';
import { type LoginAnswer, LoginFrontDoor, LoginFrontDoors, type OwnedLogin } from './login-front-doors.js';
import { LoginOwnerSeal } from './login-owner-seal.js';
import { LoginRequests } from './login-requests.js';

/**
 * The broker core's API for front doors alone: the carrier and the front doors are stubs that record what they were
 * given, the discovery a list, so each test reads as the rule it checks.
 */
const COOKIE_KEY = 'k'.repeat(64);
const config = { cookieKeys: [COOKIE_KEY] } as unknown as AppConfig;
const identity: BrokeredIdentity = { subject: 'person-1', claims: {}, amr: ['hwk'], authTime: new Date(0) };

function frontDoor(answer: LoginAnswer) {
  const calls: unknown[] = [];
  const door: LoginFrontDoor = {
    identified: async (end) => (calls.push({ identified: end }), answer),
    failed: async (end) => (calls.push({ failed: end }), answer),
  };
  return { door, calls };
}

function setup(doors: Record<string, LoginFrontDoor>, withCarrier = true) {
  const carried: CarriedLogin[] = [];
  const carrier: LoginCarrier = { carry: async (login) => (carried.push(login), '/its/index.html?client_id=shop&request_uri=urn:x') };
  const named = Object.entries(doors).map(([name, instance]) => ({ instance, name }));
  const discovery = {
    // The front doors wear LoginFrontDoor (with their name), the carrier LoginCarrierProvider (without options).
    getProviders: ({ metadataKey }: { metadataKey: string }) => (metadataKey === LoginFrontDoor.KEY ? named : withCarrier ? [{ instance: carrier }] : []),
    getMetadataByDecorator: (_point: unknown, wrapper: { name: string }) => wrapper.name,
  } as unknown as DiscoveryService;
  const frontDoors = new LoginFrontDoors(discovery);
  frontDoors.onModuleInit();
  const requests = new LoginRequests(config, frontDoors, discovery);
  requests.onModuleInit();
  return { requests, carried };
}

const start = { frontDoor: 'saml', clientId: 'shop', scopes: ['openid', 'profile'], prompt: 'login' as const, ownerRef: 'saml:tx-1' };

describe('LoginRequests (broker core: how a front door starts and ends a brokered login)', () => {
  it("begins a login through the carrier with the merchant's scopes, prompt=login and a sealed owner, and answers its address", async () => {
    const { requests, carried } = setup({ saml: frontDoor({ kind: 'page', status: 200, html: '' }).door });
    expect(await requests.begin({ ...start, uiLocales: 'nb_NO' })).toEqual({ location: '/its/index.html?client_id=shop&request_uri=urn:x' });
    expect(carried).toEqual([{ clientId: 'shop', scopes: ['openid', 'profile'], prompt: 'login', uiLocales: 'nb_NO', owner: expect.any(String) }]);
    // The owner travels sealed: only this core opens it, and only for this merchant.
    expect(requests.ownerOf(carried[0].owner, 'shop')).toEqual({ frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId: 'shop' });
    expect(requests.ownerOf(carried[0].owner, 'other-shop')).toBeUndefined();
  });

  it('cuts ui_locales at 200 characters and leaves them out when none were asked for', async () => {
    const { requests, carried } = setup({ saml: frontDoor({ kind: 'page', status: 200, html: '' }).door });
    await requests.begin({ ...start, uiLocales: 'x'.repeat(500) });
    await requests.begin(start);
    expect(carried[0].uiLocales).toHaveLength(200);
    expect(carried[1]).not.toHaveProperty('uiLocales');
  });

  it('refuses to begin for a front door that is not loaded, or without a carrier', async () => {
    await expect(setup({}).requests.begin(start)).rejects.toThrow('no front door is named saml');
    await expect(setup({ saml: frontDoor({ kind: 'page', status: 200, html: '' }).door }, false).requests.begin(start)).rejects.toThrow('no login carrier');
  });

  it('names no owner for a value it did not seal: forged, changed, sealed with another key', async () => {
    const { requests, carried } = setup({ saml: frontDoor({ kind: 'page', status: 200, html: '' }).door });
    await requests.begin(start);
    const [body, mac] = carried[0].owner.split('.');
    const forged = Buffer.from(JSON.stringify(['saml', 'saml:tx-2', 'shop'])).toString('base64url');
    expect(requests.ownerOf(`${forged}.${mac}`, 'shop')).toBeUndefined();
    expect(requests.ownerOf(`${body}.${mac}x`, 'shop')).toBeUndefined();
    expect(requests.ownerOf(body, 'shop')).toBeUndefined();
    expect(requests.ownerOf(undefined, 'shop')).toBeUndefined();
    expect(requests.ownerOf(['a'], 'shop')).toBeUndefined();
    const otherKey = new LoginOwnerSeal(['o'.repeat(64)]).seal({ frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId: 'shop' });
    expect(requests.ownerOf(otherKey, 'shop')).toBeUndefined();
  });

  it('keeps the owner of a login whose front door is no longer loaded, and ends that login as expired, never as an own login', async () => {
    const { requests } = setup({ saml: frontDoor({ kind: 'page', status: 200, html: '' }).door });
    const ofGone = new LoginOwnerSeal([COOKIE_KEY]).seal({ frontDoor: 'gone', ownerRef: 'r', clientId: 'shop' });
    expect(requests.ownerOf(ofGone, 'shop')).toEqual({ frontDoor: 'gone', ownerRef: 'r', clientId: 'shop' });
    const login: OwnedLogin = { frontDoor: 'gone', ownerRef: 'r', clientId: 'shop', locale: 'en_GB' };
    await expect(requests.identified(login, 'some-scheme', identity)).rejects.toMatchObject({ status: 400, code: 'interaction_expired' });
    await expect(requests.failed(login, 'access_denied', 'cancelled')).rejects.toMatchObject({ code: 'interaction_expired' });
  });

  it('hands the end to the owner by name, as data, and answers what the owner answers', async () => {
    const saml = frontDoor({ kind: 'page', status: 200, html: '<form>', headers: { 'Cache-Control': 'no-store' } });
    const issuer = frontDoor({ kind: 'redirect', status: 303, location: 'https://wallet.example/cb?code=c' });
    const { requests } = setup({ saml: saml.door, 'credential-issuer': issuer.door });
    const login: OwnedLogin = { frontDoor: 'credential-issuer', ownerRef: 'auth-1', clientId: 'credential-issuer', locale: 'de_DE' };
    expect(await requests.identified(login, 'some-scheme', identity)).toEqual({
      kind: 'redirect',
      status: 303,
      location: 'https://wallet.example/cb?code=c',
    });
    expect(issuer.calls).toEqual([{ identified: { login, scheme: 'some-scheme', identity } }]);
    const samlLogin: OwnedLogin = { ...login, frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId: 'shop' };
    expect(await requests.failed(samlLogin, 'access_denied', 'the user cancelled the sign-in')).toMatchObject({ kind: 'page', html: '<form>' });
    expect(saml.calls).toEqual([{ failed: { login: samlLogin, error: 'access_denied', description: 'the user cancelled the sign-in' } }]);
  });

  it('refuses two front doors of the same name at start', () => {
    const frontDoors = new LoginFrontDoors({} as DiscoveryService);
    frontDoors.register('saml', frontDoor({ kind: 'page', status: 200, html: '' }).door);
    expect(() => frontDoors.register('saml', frontDoor({ kind: 'page', status: 200, html: '' }).door)).toThrow('two front doors are named saml');
  });
});
