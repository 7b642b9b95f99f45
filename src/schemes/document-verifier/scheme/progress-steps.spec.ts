import { expectEveryLocale } from '../../../../test/support/every-locale.js';
import { VERIFIER_STEP_NAMES } from './progress-steps.js';

describe("the verifier's steps on its waiting page", () => {
  it('are named in every locale, translated', () => {
    expectEveryLocale(VERIFIER_STEP_NAMES as unknown as Record<string, Record<string, string>>);
  });
});
