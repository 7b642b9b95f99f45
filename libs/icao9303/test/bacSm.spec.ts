/** BAC and secure messaging: ICAO 9303-11 Appendix D worked example byte for byte, and reading through a fake chip. */
import {
  deriveBacKeys,
  buildMutualAuth,
  completeMutualAuth,
  SecureMessaging,
  readFile,
  openBacSession,
  FILE_IDS,
  fromHex,
  toHex,
  aesCmac,
  Icao9303Error,
  type ApduTransport,
} from '@identity-broker/icao9303';
import { fixture, fixtureJson } from './fixtures.js';
import { FakeChip } from './fakeChip.js';

const v = fixtureJson('bac-sm/icao9303_p11_appD_bac_sm.json').values;

describe('ICAO 9303-11 Appendix D worked example', () => {
  const keys = deriveBacKeys(v.mrz_information);
  it('D.2 document basic access keys', () => {
    expect([toHex(keys.kSeed), toHex(keys.kEnc), toHex(keys.kMac)]).toEqual([v.K_seed, v.K_enc, v.K_mac]);
  });
  it('D.3 mutual authentication: E_IFD, M_IFD', () => {
    const m = buildMutualAuth(keys, fromHex(v.RND_IC), fromHex(v.RND_IFD), fromHex(v.K_IFD));
    expect([toHex(m.eIfd), toHex(m.mIfd)]).toEqual([v.E_IFD, v.M_IFD]);
  });
  it('D.3 session keys and SSC from the chip response', () => {
    const s = completeMutualAuth(keys, fromHex(v.E_IC + v.M_IC), fromHex(v.RND_IC), fromHex(v.RND_IFD), fromHex(v.K_IFD));
    expect([toHex(s.ksEnc), toHex(s.ksMac), toHex(s.ssc)]).toEqual([v.KS_enc, v.KS_mac, v.SSC]);
  });
  it('rejects a chip response with a wrong MAC', () => {
    const resp = fromHex(v.E_IC + v.M_IC);
    resp[39] ^= 1;
    expect(() => completeMutualAuth(keys, resp, fromHex(v.RND_IC), fromHex(v.RND_IFD), fromHex(v.K_IFD))).toThrow(
      expect.objectContaining({ code: 'SECURE_MESSAGING' }),
    );
  });
  it('D.4 protected SELECT EF.COM and READ BINARY, responses verified and decrypted', () => {
    const sm = new SecureMessaging('3DES', fromHex(v.KS_enc), fromHex(v.KS_mac), fromHex(v.SSC));
    expect(toHex(sm.protectCommand(fromHex(v.select_EF_COM.unprotected)))).toBe(v.select_EF_COM.protected_APDU);
    expect(toHex(sm.ssc)).toBe(v.select_EF_COM.SSC);
    expect(sm.unprotectResponse(fromHex(v.select_EF_COM.response_APDU)).sw).toBe(0x9000);
    expect(toHex(sm.protectCommand(fromHex(v.read_binary_4.unprotected)))).toBe(v.read_binary_4.protected_APDU);
    expect(toHex(sm.ssc)).toBe(v.read_binary_4.SSC);
    const r = sm.unprotectResponse(fromHex(v.read_binary_4.response_APDU));
    expect([toHex(r.data), r.sw]).toEqual([v.read_binary_4.decrypted_data, 0x9000]);
  });
  it('a response with a wrong MAC is refused', () => {
    const sm = new SecureMessaging('3DES', fromHex(v.KS_enc), fromHex(v.KS_mac), fromHex(v.SSC));
    sm.protectCommand(fromHex(v.select_EF_COM.unprotected));
    const bad = fromHex(v.select_EF_COM.response_APDU);
    bad[8] ^= 1;
    expect(() => sm.unprotectResponse(bad)).toThrow(Icao9303Error);
  });
});

describe('AES-CMAC (RFC 4493 test vectors)', () => {
  const key = fromHex('2b7e151628aed2a6abf7158809cf4f3c');
  it.each([
    ['', 'bb1d6929e95937287fa37d129b756746'],
    ['6bc1bee22e409f96e93d7e117393172a', '070a16b46b4d4144f79bdd9dd04a287c'],
    ['6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411', 'dfa66747de9ae63030ca32611497c827'],
  ])('message %s', (m, tag) => {
    expect(toHex(aesCmac(key, fromHex(m)))).toBe(tag.toUpperCase());
  });
});

describe('reading files through an ApduTransport with BAC secure messaging', () => {
  const files = new Map<number, Uint8Array>([
    [FILE_IDS.COM, fixture('bsi-tr03105-5/EF_COM.bin')],
    [FILE_IDS.DG1, fixture('bsi-tr03105-5/Datagroup1.bin')],
    [FILE_IDS.DG2, fixture('bsi-tr03105-5/Datagroup2.bin')],
    [FILE_IDS.SOD, fixture('bsi-tr03105-5/EF_SOD.bin')],
  ]);
  const mrzInfo = 'C11T002JM496081222310314';

  it('the first protected APDU equals Appendix D when the same randoms are used', async () => {
    const chip = new FakeChip(new Map([[FILE_IDS.COM, fixture('dg11-dg12-com/EF_COM_icao_p10.bin')]]), v.mrz_information, {
      rndIc: fromHex(v.RND_IC),
      kIc: fromHex(v.K_IC),
    });
    const randoms = [fromHex(v.RND_IFD), fromHex(v.K_IFD)];
    const sm = await openBacSession(chip, v.mrz_information, () => randoms.shift()!);
    expect(toHex(chip.sent[1].subarray(5, 5 + 40))).toBe(v.E_IFD + v.M_IFD);
    expect(toHex(chip.received[1].subarray(0, 40))).toBe(v.E_IC + v.M_IC);
    await readFile(chip, FILE_IDS.COM, { sm });
    expect(toHex(chip.sent[2])).toBe(v.select_EF_COM.protected_APDU);
    expect(toHex(chip.received[2])).toBe(v.select_EF_COM.response_APDU);
  });

  it('reads EF.COM, DG1, DG2 (15 KB, chunked) and EF.SOD byte-exact', async () => {
    const chip = new FakeChip(files, mrzInfo);
    const sm = await openBacSession(chip, mrzInfo);
    for (const [fid, content] of files) expect(toHex(await readFile(chip, fid, { sm, chunkSize: 0xdf }))).toBe(toHex(content));
    const reads = chip.sent.length;
    expect(reads).toBeGreaterThan(15_083 / 0xdf);
  });

  it('wrong MRZ: the chip refuses EXTERNAL AUTHENTICATE', async () => {
    const chip = new FakeChip(files, mrzInfo);
    await expect(openBacSession(chip, 'L898902C<369080619406236')).rejects.toThrow(expect.objectContaining({ code: 'CHIP_ERROR' }));
  });

  it('missing file → typed chip error', async () => {
    const chip = new FakeChip(files, mrzInfo);
    const sm = await openBacSession(chip, mrzInfo);
    await expect(readFile(chip, FILE_IDS.DG15, { sm })).rejects.toThrow(expect.objectContaining({ code: 'CHIP_ERROR' }));
  });

  it('a man in the middle altering a response is detected', async () => {
    const chip = new FakeChip(files, mrzInfo);
    const sm = await openBacSession(chip, mrzInfo);
    let n = 0;
    const tampering: ApduTransport = {
      async transmit(apdu) {
        const r = await chip.transmit(apdu);
        if (++n === 2) r[3] ^= 0x01; // inside the encrypted DO87 of the first READ BINARY
        return r;
      },
    };
    await expect(readFile(tampering, FILE_IDS.DG1, { sm })).rejects.toThrow(expect.objectContaining({ code: 'SECURE_MESSAGING' }));
  });

  it('transport failures become typed errors', async () => {
    const broken: ApduTransport = {
      transmit: async () => {
        throw new Error('link lost');
      },
    };
    await expect(readFile(broken, FILE_IDS.COM)).rejects.toThrow(expect.objectContaining({ code: 'CHIP_ERROR' }));
  });
});
