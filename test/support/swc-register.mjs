// Runs the service from its TypeScript sources in a child process, the way jest runs it in-process: through
// SWC with decorator metadata (tsx/esbuild emit none, and Nest's injection needs it). Used by tests that
// must kill or signal a real instance:  node --import ./test/support/swc-register.mjs src/main.ts
import { register } from 'node:module';

register('./swc-hooks.mjs', import.meta.url);
