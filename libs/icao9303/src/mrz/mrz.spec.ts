import { parseMrz, parseDg1, computeCheckDigit, mrzInformation, Icao9303Error, buildTd1, buildTd3 } from '@identity-broker/icao9303';
import { fixture, fixtureJson } from '../../test/fixtures.js';

const data = fixtureJson('mrz/mrz_specimens.json');

describe('MRZ check digits (ICAO 9303-3 §4.9)', () => {
  it.each(data.check_digit_examples.map((e: any) => [e.data, e.expected_check_digit]) as Array<[string, string]>)('%s → %s', (input, cd) => {
    expect(computeCheckDigit(input)).toBe(cd);
  });
});

describe('MRZ specimens from PROVENANCE §11', () => {
  it.each(data.specimens.map((s: any) => [s.source, s]) as Array<[string, any]>)('%s', (_src, s: any) => {
    const p = s.parsed_by_me;
    const mrz = parseMrz(s.mrz, { strict: false });
    expect(mrz.format).toBe(p.format);
    expect(mrz.documentCode).toBe(p.document_code);
    expect(mrz.issuingState).toBe(p.issuing_state);
    expect(mrz.primaryIdentifier).toBe(p.primary_identifier);
    expect(mrz.secondaryIdentifier).toBe(p.secondary_identifier);
    expect(mrz.documentNumber).toBe(p.document_number);
    expect(mrz.nationality).toBe(p.nationality);
    expect(mrz.dateOfBirth).toBe(p.date_of_birth);
    expect(mrz.dateOfExpiry).toBe(p.date_of_expiry);
    expect(mrz.sex).toBe(p.sex);
    expect(mrz.optionalData).toBe(p.optional_data ?? p.optional_data_1);
    if (p.optional_data_2 !== undefined) expect(mrz.optionalData2).toBe(p.optional_data_2);
    expect(mrz.checkDigits).toEqual(
      Object.fromEntries(Object.entries(p.check_digits_valid).map(([k, v]) => [k.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()), v])),
    );
    expect(mrz.mrzInformation).toBe(p.bac_mrz_information);
    const allValid = Object.values(p.check_digits_valid).every(Boolean);
    expect(mrz.valid).toBe(allValid);
    if (allValid) expect(() => parseMrz(s.mrz)).not.toThrow();
    else expect(() => parseMrz(s.mrz)).toThrow(Icao9303Error);
  });

  it('names the bad field in strict mode', () => {
    const bad = data.specimens.find((s: any) => s.source.includes('optional-data cd corrupted')).mrz;
    expect(() => parseMrz(bad)).toThrow(expect.objectContaining({ code: 'MRZ_CHECK_DIGIT', field: 'optionalData' }));
  });

  it('rejects wrong lengths and characters', () => {
    expect(() => parseMrz('P<UTO')).toThrow(expect.objectContaining({ code: 'MRZ_FORMAT' }));
    expect(() => parseMrz('p'.repeat(88))).toThrow(expect.objectContaining({ code: 'MRZ_FORMAT' }));
  });

  it('accepts line breaks', () => {
    expect(parseMrz(data.specimens[0].lines.join('\n')).documentNumber).toBe('L898902C3');
  });
});

describe('DG1 wrappers (9303-10 §4.7.1)', () => {
  it('TD1 NLD example: composite check digit as published is wrong (PROVENANCE §11)', () => {
    const { mrz } = parseDg1(fixture('mrz/EF_DG1_TD1_NLD_icao_p10_A2-1.bin'));
    expect(mrz.documentNumber).toBe('XI85935F8');
    expect(mrz.optionalData).toBe('999999990');
    expect(mrz.checkDigits.composite).toBe(false);
  });
  it('TD2 ATA example as fixed by pymrtd, long document number', () => {
    const { mrz } = parseDg1(fixture('mrz/EF_DG1_TD2_ATA_icao_p10_A2-2_as_fixed_by_pymrtd.bin'));
    expect(mrz.format).toBe('TD2');
    expect(mrz.documentNumber).toBe('123456789012');
    expect(mrz.nationality).toBe('HMD');
    expect(mrz.dateOfBirth).toBe('740622');
    expect(mrz.dateOfExpiry).toBe('101231');
    expect(mrz.valid).toBe(true);
  });
  it('TD3 and TD2 UTO specimens', () => {
    expect(parseDg1(fixture('mrz/EF_DG1_TD3_UTO_icao_p4_specimen.bin')).mrz.primaryIdentifier).toBe('ERIKSSON');
    expect(parseDg1(fixture('mrz/EF_DG1_TD2_UTO_specimen_gmrtd.bin')).mrz.documentNumber).toBe('D23145890');
  });
  it('BSI DG1', () => {
    const { mrz } = parseDg1(fixture('bsi-tr03105-5/Datagroup1.bin'));
    expect(mrz.issuingState).toBe('D');
    expect(mrz.dateOfExpiry).toBe('231031');
  });
  it('rejects a truncated DG1 with a typed error', () => {
    expect(() => parseDg1(fixture('mrz/EF_DG1_TD3_UTO_icao_p4_specimen.bin').subarray(0, 40))).toThrow(Icao9303Error);
  });
});

describe('MRZ builders round-trip', () => {
  const fields = {
    issuingState: 'UTO',
    surname: 'van der Steen',
    givenNames: 'Marianne Louise',
    documentNumber: 'XI85935F8',
    nationality: 'NLD',
    dateOfBirth: '720814',
    sex: 'F' as const,
    dateOfExpiry: '310826',
  };
  it('TD3', () => {
    const mrz = parseMrz(buildTd3(fields));
    expect([mrz.format, mrz.primaryIdentifier, mrz.secondaryIdentifier, mrz.valid]).toEqual(['TD3', 'VAN DER STEEN', 'MARIANNE LOUISE', true]);
    expect(mrz.mrzInformation).toBe(mrzInformation('XI85935F8', '720814', '310826'));
  });
  it('TD1', () => {
    const mrz = parseMrz(buildTd1(fields));
    expect([mrz.format, mrz.documentNumber, mrz.valid]).toEqual(['TD1', 'XI85935F8', true]);
  });
});
