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
