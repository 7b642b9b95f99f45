/**
 * Runs `work` while /health/live is asked again and again, and measures the longest time between two of its
 * answers. The app runs in the test's process: while a request blocks the event loop, neither health answers nor
 * timers run, so the longest gap covers the whole block, whenever in the polling it starts.
 */
export async function duringHealthPolling<T>(baseUrl: string, work: () => Promise<T>): Promise<{ result: T; longestHealthGapMs: number }> {
  let done = false;
  let longest = 0;
  const polling = (async () => {
    let last = performance.now();
    while (!done) {
      await fetch(`${baseUrl}/health/live`).then((res) => res.arrayBuffer());
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await polling;
  }
  // Read after the last answer, which may come only once the work has ended.
  return { result, longestHealthGapMs: longest };
}
