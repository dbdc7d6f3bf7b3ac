import { startStandaloneProxy } from "./standalone-proxy.ts";

/** `npm run proxy`: the API alone, configured by the environment (see docs/proxy.md), until Ctrl-C. */
try {
  const proxy = await startStandaloneProxy(process.env, (line) => console.error(`[pi-playground] ${line}`));
  for (const line of proxy.banner) console.log(line);
  const stop = () => {
    proxy.server.closeAllConnections();
    void proxy.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`The proxy could not start: ${(error as Error).message}`);
  process.exit(1);
}
