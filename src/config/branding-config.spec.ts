import { writeFileSync } from 'node:fs';
import { loadBrandingConfig } from './branding-config.js';
import { contrastRatio } from './contrast.js';
import { writeOperatorLogo } from '../../test/support/operator-logo.js';
import { configProblems } from '../../test/support/config-problems.js';

const problemsOf = (env: Record<string, string>): string[] => configProblems(() => loadBrandingConfig(env));

describe('operator branding (OPERATOR_*)', () => {
  it('measures contrast as WCAG 2.2 defines it', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The default accent on white, and the order of the two colours does not matter.
    expect(contrastRatio('#2848b8', '#ffffff')).toBeCloseTo(contrastRatio('#ffffff', '#2848b8'), 10);
    expect(contrastRatio('#2848b8', '#ffffff')).toBeGreaterThan(7);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('takes a dark enough accent colour, in lower case', () => {
    expect(loadBrandingConfig({ OPERATOR_ACCENT_COLOUR: '#7A1F5C' }).accentColour).toBe('#7a1f5c');
  });

  it('refuses an accent colour that breaks AA, and says by how much and why', () => {
    const [problem, ...rest] = problemsOf({ OPERATOR_ACCENT_COLOUR: '#4a90e2' });
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /^OPERATOR_ACCENT_COLOUR: #4a90e2 reaches 3\.\d\d:1 against white and 3\.\d\d:1 against the page background #f4f5f7; links and white button labels in it need 4\.5:1 \(WCAG 2\.2 AA, 1\.4\.3\): choose a darker shade$/,
    );
    // Grey #767676 passes on white (4.54:1) but not on the page background, where the footer's links are.
    expect(problemsOf({ OPERATOR_ACCENT_COLOUR: '#767676' })).toHaveLength(1);
    expect(problemsOf({ OPERATOR_ACCENT_COLOUR: 'navy' })).toEqual(['OPERATOR_ACCENT_COLOUR: must be a colour written #rrggbb']);
  });

  it('reads a PNG logo once, with its type and hash', () => {
    const { path, bytes } = writeOperatorLogo();
    const { logo } = loadBrandingConfig({ OPERATOR_LOGO_FILE: path });
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.bytes.equals(bytes)).toBe(true);
    expect(logo?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a missing, oversized, SVG or broken logo at start, naming the file', () => {
    const { path } = writeOperatorLogo();
    expect(problemsOf({ OPERATOR_LOGO_FILE: `${path}.missing` })).toEqual([`OPERATOR_LOGO_FILE: no file at ${path}.missing`]);
    writeFileSync(path, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(problemsOf({ OPERATOR_LOGO_FILE: path })[0]).toMatch(/SVG is refused/);
    writeFileSync(path, Buffer.alloc(300 * 1024));
    expect(problemsOf({ OPERATOR_LOGO_FILE: path })[0]).toMatch(/is 307200 bytes; at most 262144$/);
  });

  it('takes an https or mailto: contact, nothing else, and names every problem at once', () => {
    expect(loadBrandingConfig({ OPERATOR_CONTACT_URL: 'mailto:support@operator.example' }).contactUrl).toBe('mailto:support@operator.example');
    const problems = problemsOf({ OPERATOR_CONTACT_URL: 'javascript:alert(1)', OPERATOR_ACCENT_COLOUR: '#ffff00' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['OPERATOR_ACCENT_COLOUR', 'OPERATOR_CONTACT_URL']);
  });

  it('shows the operator name only when OPERATOR_NAME is set', () => {
    expect(loadBrandingConfig({}).operatorName).toBeUndefined();
    expect(loadBrandingConfig({ OPERATOR_NAME: ' Nordic ID Services AS ' }).operatorName).toBe('Nordic ID Services AS');
  });
});
