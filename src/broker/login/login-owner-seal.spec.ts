import { LoginOwnerSeal } from './login-owner-seal.js';

const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);
const owner = { frontDoor: 'saml', ownerRef: 'saml:tx-1', clientId: 'shop' };

describe('LoginOwnerSeal', () => {
  it('opens what it sealed, for the merchant it was sealed for only', () => {
    const seal = new LoginOwnerSeal([NEW]);
    const sealed = seal.seal(owner);
    expect(seal.open(sealed, 'shop')).toEqual(owner);
    expect(seal.open(sealed, 'other-shop')).toBeUndefined();
  });

  it('still opens a login sealed before the keys were rotated (the old key now second), and seals with the first', () => {
    const before = new LoginOwnerSeal([OLD]).seal(owner);
    const rotated = new LoginOwnerSeal([NEW, OLD]);
    expect(rotated.open(before, 'shop')).toEqual(owner);
    // Sealed now: the new key's MAC, which a service that dropped the old key opens too.
    expect(new LoginOwnerSeal([NEW]).open(rotated.seal(owner), 'shop')).toEqual(owner);
    // Once the old key is gone, its seals open no more.
    expect(new LoginOwnerSeal([NEW]).open(before, 'shop')).toBeUndefined();
  });

  it('refuses a forged or altered value, and anything that is not one', () => {
    const seal = new LoginOwnerSeal([NEW]);
    const [body, mac] = seal.seal(owner).split('.');
    const otherBody = Buffer.from(JSON.stringify(['saml', 'saml:tx-2', 'shop'])).toString('base64url');
    expect(seal.open(`${otherBody}.${mac}`, 'shop')).toBeUndefined();
    expect(seal.open(`${body}.${mac}x`, 'shop')).toBeUndefined();
    expect(seal.open(`${body}.${mac}.extra`, 'shop')).toBeUndefined();
    expect(seal.open(new LoginOwnerSeal(['c'.repeat(64)]).seal(owner), 'shop')).toBeUndefined();
    for (const value of [undefined, 42, '', 'x'.repeat(3000), ['a', 'b']]) expect(seal.open(value, 'shop')).toBeUndefined();
  });
});
