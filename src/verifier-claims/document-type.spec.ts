import { documentType } from './document-type.js';

describe('documentType', () => {
  it.each([
    ['P', 'PASSPORT'],
    ['P<', 'PASSPORT'],
    ['PO', 'PASSPORT'],
    ['PD', 'PASSPORT'],
    ['I', 'ID_CARD'],
    ['ID', 'ID_CARD'],
    ['I<', 'ID_CARD'],
    ['A', 'ID_CARD'],
    ['C', 'ID_CARD'],
    ['CI', 'ID_CARD'],
    ['IR', 'RESIDENCE_PERMIT'],
    ['AR', 'RESIDENCE_PERMIT'],
    ['AC', 'CREW_MEMBER_CERTIFICATE'],
    ['V', 'VISA'],
    ['VA', 'VISA'],
    ['D', 'DRIVERS_LICENSE'],
    ['DL', 'DRIVERS_LICENSE'],
    ['id', 'ID_CARD'],
    ['X', 'OTHER'],
    ['', 'OTHER'],
  ])('%s -> %s', (code, type) => {
    expect(documentType(code)).toBe(type);
  });
});
