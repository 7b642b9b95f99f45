import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from '@swc/core';
import { SWC_OPTIONS } from '../../scripts/transpile.mjs';

/** The sources import './x.js' for './x.ts' (NodeNext style); resolve to the .ts file when no .js exists. */
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (relative && specifier.endsWith('.js')) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw err;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return next(url, context);
  const filename = fileURLToPath(url);
  // The settings of `npm start`'s build, with the source map inline.
  const { code } = await transform(await readFile(filename, 'utf8'), { ...SWC_OPTIONS, filename, sourceMaps: 'inline' });
  return { format: 'module', source: code, shortCircuit: true };
}
