// Test-only preload for a service in a child process whose memory a test reads (node --expose-gc --import this):
// SIGUSR2 runs a full garbage collection of the main thread and says so on stderr, so the test reads what stays,
// not garbage V8 has not collected yet.
process.on('SIGUSR2', () => {
  globalThis.gc();
  process.stderr.write('gc-on-signal: collected\n');
});
