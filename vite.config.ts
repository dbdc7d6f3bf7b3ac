/// <reference types="vitest/config" />
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";
import { listenAddress, playgroundApi, serverOptions } from "./src/server/vite-plugin.ts";

const { host, port } = listenAddress(process.env);
const shared = serverOptions(host, process.env);

export default defineConfig({
  plugins: [svelte(), playgroundApi({ host })],
  server: { ...shared, port: port ?? 5173 },
  preview: { ...shared, port: port ?? 4173, strictPort: true },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
  // The Markdown worker loads its highlighter as a chunk of its own, which needs an ES module worker.
  worker: { format: "es" },
  build: {
    target: "es2022",
    sourcemap: true,
    rollupOptions: {
      onwarn(warning, defaultHandler) {
        // pi-ai's provider-env module imports node:fs on a path the browser build never runs.
        if (warning.message.includes("externalized for browser compatibility")) return;
        defaultHandler(warning);
      },
      output: {
        // The libraries every page needs load as one chunk rather than a handful of small ones that
        // compress worse; Markdown's libraries stay apart, loaded with the first reply.
        advancedChunks: {
          groups: [{ name: "runtime", test: /node_modules[\\/](?!marked|dompurify|highlight\.js)/ }],
        },
      },
    },
  },
});
