/**
 * `nest start` runs `node dist/src/main`; nest-cli.json's `exec` preloads this file first (`node --import`). `nest
 * build` (tsc, its output folder emptied first) writes the compiled libraries but not their package manifests and the
 * links in dist/node_modules through which the service imports them by name: they are written here, as `npm run
 * build` and `npm start` write them.
 */
import { fileURLToPath } from 'node:url';
import { packageLibraries } from './library-packages.mjs';

packageLibraries(fileURLToPath(new URL('..', import.meta.url)));
