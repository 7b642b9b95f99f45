import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repo = new URL('../..', import.meta.url).pathname;

/** How Node resolves `specifier` from the repository: the file, or the error code. */
function resolveFromRepo(specifier: string): string {
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `try { console.log(import.meta.resolve(${JSON.stringify(specifier)})); } catch (e) { console.log(e.code); }`],
    { cwd: repo, encoding: 'utf8' },
  );
  return r.stdout.trim();
}

/** libs/* are npm workspaces whose package.json exports are their API (docs/architecture.md#libraries-as-packages). */
describe('the libraries as packages', () => {
  it('resolve by name to their entries, and a path inside a package does not resolve', () => {
    expect(resolveFromRepo('@identity-broker/face')).toBe(`file://${join(repo, 'libs/face/src/index.ts')}`);
    expect(resolveFromRepo('@identity-broker/face/calibration')).toBe(`file://${join(repo, 'libs/face/src/calibration/index.ts')}`);
    expect(resolveFromRepo('@identity-broker/face/src/types.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(resolveFromRepo('@identity-broker/icao9303/src/lds/dg14.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('npm run lint refuses a deep import of a library, by path or by package, and one library reaching into another', async () => {
    const eslint = new ESLint({ cwd: repo });
    const ruleIds = async (file: string, text: string) => (await eslint.lintText(text, { filePath: join(repo, file) }))[0].messages.map((m) => m.ruleId);
    const restricted = '@typescript-eslint/no-restricted-imports';
    expect(await ruleIds('src/config/planted.ts', "import type { RgbImage } from '../../libs/face/src/types.js';\nexport type Planted = RgbImage;\n")).toEqual([
      restricted,
    ]);
    expect(await ruleIds('scripts/planted.ts', "import type { Box } from '@identity-broker/face/src/types.js';\nexport type Planted = Box;\n")).toEqual([
      restricted,
    ]);
    expect(await ruleIds('libs/verifier-sdk/src/planted.ts', "export { parseDg14 } from '../../icao9303/src/lds/dg14.js';\n")).toEqual([restricted]);
    // A library's tests live inside it: one library's tests reaching into another are refused, and from test/ every
    // relative path into a library is (the tests of test/ once allowed into their library are gone from there).
    expect(await ruleIds('libs/face/test/planted.spec.ts', "import { FaceError } from '../../icao9303/src/errors.js';\nvoid FaceError;\n")).toEqual([
      restricted,
    ]);
    expect(await ruleIds('libs/face/src/planted.spec.ts', "import { FaceError } from '../../icao9303/src/errors.js';\nvoid FaceError;\n")).toEqual([
      restricted,
    ]);
    expect(await ruleIds('test/icao/planted.spec.ts', "import { encodeTlv } from '../../libs/icao9303/src/util/tlv.js';\nvoid encodeTlv;\n")).toEqual([
      restricted,
    ]);
    // Allowed: the public API by name, and a library's own tests reaching the internals they test, beside them or
    // from the library's test/ folder.
    expect(await ruleIds('src/config/planted.ts', "import type { RgbImage } from '@identity-broker/face';\nexport type Planted = RgbImage;\n")).toEqual([]);
    expect(await ruleIds('libs/icao9303/test/planted.spec.ts', "import { encodeTlv } from '../src/util/tlv.js';\nvoid encodeTlv;\n")).toEqual([]);
    expect(await ruleIds('libs/icao9303/src/util/planted.spec.ts', "import { encodeTlv } from './tlv.js';\nvoid encodeTlv;\n")).toEqual([]);
  });
});
