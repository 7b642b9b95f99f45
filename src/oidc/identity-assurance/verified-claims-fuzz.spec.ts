import { mulberry32 } from '../../../test/support/seeded-random.js';
import { answerClaimSet } from './verified-claims-answer.js';
import { VerifiedClaimsRequestError, verifiedClaimsSets } from './verified-claims-request.js';

/** Random JSON in the neighbourhood of a verified_claims request: its member names, wrong types, deep and wide objects. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const names = [
    'verification',
    'claims',
    'trust_framework',
    'evidence',
    'type',
    'value',
    'values',
    'max_age',
    'time',
    'essential',
    'purpose',
    'check_details',
    'document_details',
    'given_name',
    '__proto__',
    'constructor',
    'x',
  ];
  const kind = depth > 6 ? pick(['null', 'string', 'number']) : pick(['null', 'string', 'number', 'bool', 'array', 'object', 'object']);
  switch (kind) {
    case 'null':
      return null;
    case 'string':
      return pick(['', 'document', 'eidas', 'a'.repeat(400), '\u0000', 'ab', '2026-01-01', 'x'.repeat(3)]);
    case 'number':
      return pick([0, -1, 1.5, 1e308, 2 ** 53, 3600]);
    case 'bool':
      return random() < 0.5;
    case 'array':
      return Array.from({ length: Math.floor(random() * 12) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [pick(names), randomValue(random, depth + 1)]));
  }
}

const STATED = {
  trust_framework: 'eidas',
  time: '2026-11-29T11:00:00Z',
  evidence: [{ type: 'document', check_details: [{ check_method: 'vcrypt', check_id: 'a' }] }],
};

describe('verified_claims requests of random shape', () => {
  it('are accepted or refused with a VerifiedClaimsRequestError, never another error, and an accepted one is answered', () => {
    const random = mulberry32(40);
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      // Every other case keeps the request's skeleton, with random members inside it, so that many pass the checks.
      const skeleton = () => ({
        verification: { trust_framework: null, ...(randomValue(random, 3) as object) },
        claims: { given_name: randomValue(random, 5) },
      });
      const claims = { id_token: { verified_claims: i % 2 ? skeleton() : randomValue(random, 0) } };
      try {
        for (const set of verifiedClaimsSets(claims.id_token, 'claims.id_token')) {
          answerClaimSet(set, STATED, { given_name: 'A' }, new Date());
          accepted++;
        }
      } catch (e) {
        if (!(e instanceof VerifiedClaimsRequestError)) throw new Error(`seed 40, case ${i}: ${String(e)} for ${JSON.stringify(claims)}`);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
