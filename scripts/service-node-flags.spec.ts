import { readFileSync } from 'node:fs';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from './service-node-flags.js';

describe('the V8 flags the service runs with', () => {
  it('are passed by `npm start` as by the scripts that start the service (scripts/service-node-flags.ts)', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const start = scripts.start.split(/\s+/);
    expect(start[0]).toBe('node');
    expect(start.slice(1, -1)).toEqual([...SERVICE_NODE_FLAGS]);
    expect(start.at(-1)).toBe('scripts/start.mjs');
  });

  it('set the environment the image runs with as the scripts and tests that start the service do (SERVICE_ENV)', () => {
    const env = new Set(readFileSync('Dockerfile', 'utf8').match(/\b[A-Z_]+=\S+/g));
    for (const [name, value] of Object.entries(SERVICE_ENV)) expect(env).toContain(`${name}=${value}`);
  });
});
