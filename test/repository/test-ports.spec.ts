import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MERCHANT_ORIGIN, REDIRECT_URI } from '../support/oidc-flow.js';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' ? [] : e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
/** Every test: test/, and the specs beside the code and the libraries' test folders (docs/development.md#where-tests-live). */
const tests = (): string[] => [
  ...sources('test'),
  ...['src', 'libs', 'scripts'].flatMap(sources).filter((file) => file.endsWith('.spec.ts') || /^libs\/[^/]+\/test\//.test(file)),
];

/** The tests listen only on ephemeral ports: a developer's own server on a fixed port never sees their traffic. */
describe("the tests' own servers", () => {
  it("answer the test merchants' redirect URI on this run's ephemeral port, not a fixed one", async () => {
    const port = Number(new URL(MERCHANT_ORIGIN).port);
    expect(port).toBeGreaterThan(1024);
    expect([80, 443, 3000, 8000, 8080, 8081, 8443]).not.toContain(port);
    const res = await fetch(`${REDIRECT_URI}?code=x&state=y`);
    expect([res.status, await res.text()]).toEqual([200, 'the merchant']);
  });

  it('never listen on a port number written in a test', () => {
    const fixed = tests().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\.listen\(\s*[1-9]|['"`]-S['"`],\s*['"`][^'"`]*:[1-9]/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(fixed).toEqual([]);
  });
});
