import { defineConfig } from "vite";

/**
 * `npm run proxy` builds the standalone proxy for Node (which cannot run TypeScript itself) into
 * dist-proxy/; its dependencies stay in node_modules and are imported from there at run time.
 */
export default defineConfig({
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: "src/server/proxy-main.ts",
    outDir: "dist-proxy",
    emptyOutDir: true,
    target: "node20",
    sourcemap: true,
  },
});
