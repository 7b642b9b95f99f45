const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the bound on starting the service in a test (withinStartBound)', () => {
  const bound = async () => {
    // The bound is read once, when the module loads: a short one for this file.
    process.env.TEST_APP_START_SECONDS = '0.3';
    return (await import('./start-bound.js')).withinStartBound;
  };

  it('answers with the start when it ends within the bound', async () => {
    const withinStartBound = await bound();
    await expect(withinStartBound(async (mark) => (mark('database'), 'started'))).resolves.toBe('started');
  });

  it('fails past the bound, naming the time of each phase, the one still running, and the machine load', async () => {
    const withinStartBound = await bound();
    const slow = withinStartBound(async (mark) => {
      mark('database');
      await sleep(50);
      mark('application');
      await sleep(1_000);
    });
    await expect(slow).rejects.toThrow(
      /^the service did not start within 0\.3 s: preparing 0\.\d s, database 0\.\d s, application 0\.\d s and not done; load average [\d.]+ on \d+ cores$/,
    );
  });

  it('passes a failed start on as it is', async () => {
    const withinStartBound = await bound();
    await expect(withinStartBound(async () => Promise.reject(new Error('migrations failed')))).rejects.toThrow('migrations failed');
  });
});
