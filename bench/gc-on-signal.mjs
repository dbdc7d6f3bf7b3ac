// Loaded into the proxy process by the memory benchmark only (`node --expose-gc --import …`): SIGUSR2 asks
// for a full garbage collection and prints what the process then holds, so what the proxy keeps after a
// load can be told from garbage the engine had no reason to collect yet, and from pages it has not given
// back to the system.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stderr.write(`gc-memory ${JSON.stringify({ heapUsed, external, arrayBuffers })}\n`);
});
