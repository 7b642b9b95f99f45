import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from '../support/service-process.js';

/**
 * What `npm start` prints once it answers: where to start (the /docs page), and development secrets said to be
 * generated only by the start that generated them; a later start on the same data folder says it read them.
 */
describe('the start banner', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'banner-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const bannerOfStart = async () => {
    const service = await startServiceProcess({ env: { DATA_DIR: dataDir } });
    try {
      // The banner and the first answer travel apart (a pipe, a socket): wait for its last line.
      for (let i = 0; i < 100 && !service.stdout().includes('  health:'); i++) await new Promise((r) => setTimeout(r, 50));
      return { banner: service.stdout(), base: service.baseUrl };
    } finally {
      await service.stop();
    }
  };

  it('names the Start here page, and says the secrets were generated only when they were', async () => {
    const first = await bannerOfStart();
    expect(first.banner).toContain(`  start here: ${first.base}/docs\n`);
    expect(first.banner).toContain(
      `  development secrets generated for DATA_ENCRYPTION_KEY, COOKIE_KEYS, SUBJECT_SECRET, PAIRWISE_SECRET (kept in ${dataDir})`,
    );
    expect(first.banner).not.toContain('read from');

    const second = await bannerOfStart();
    expect(second.banner).not.toContain('generated');
    expect(second.banner).toContain(`  development secrets DATA_ENCRYPTION_KEY, COOKIE_KEYS, SUBJECT_SECRET, PAIRWISE_SECRET read from ${dataDir}\n`);
  }, 180_000);
});
