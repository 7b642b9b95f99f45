/**
 * oidc-provider warns once per process that it prefers Node 22; jest loads it afresh in every test file,
 * so the one known line would repeat two dozen times. Only that exact warning is dropped.
 */
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider WARNING: Unsupported runtime')) return;
  warn(...args);
};
