/**
 * The V8 flags the service runs with, on every path that starts it: `npm start` (package.json passes them to
 * scripts/start.mjs, which runs the service in its own process), the cluster and benchmark scripts, the tests'
 * service processes. scripts/service-node-flags.spec.ts keeps package.json's start script in step.
 *
 * --max-semi-space-size=16: V8 sizes the young generation from the machine's memory, and on a 24 GiB machine it
 * grows each semi-space to 64 MiB under a burst of verifications (frames pass through the main thread), 128 MiB of
 * new space that an idle heap keeps. 16 MiB semi-spaces (Node 18's ceiling) cost no measurable CPU on the hot path
 * (docs/benchmarks.md, "Face worker memory"). The face worker threads have the same bound of their own
 * (WorkerFaceEngine's resourceLimits), whatever flags start the process.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];

/**
 * The environment the service runs with on every path that starts it as a process (the image sets it too: Dockerfile).
 *
 * MALLOC_MMAP_THRESHOLD_=131072: glibc serves allocations over this size with mmap and gives them back to the system
 * when freed. Left to itself it raises the threshold each time such a block is freed (up to 32 MiB), after which frames,
 * decoded images and upload buffers of a few MiB come from its heaps, where freed memory stays resident: after 100
 * verifications the process without its face threads held 442 MiB with the dynamic threshold and 272 MiB with it
 * fixed (docs/benchmarks.md, "Face worker memory"). glibc reads it at process start, so it cannot be set from inside.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };
