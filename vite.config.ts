/// <reference types="vitest/config" />
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";
import { listenAddress } from "./src/server/proxy-config.ts";
import { playgroundApi, serverOptions } from "./src/server/vite-plugin.ts";

const { host, port } = listenAddress(process.env);
const shared = serverOptions(host, process.env);

export default defineConfig({
  // Relative asset URLs: the built app runs from any static host under any path (GitHub Pages, a docs site).
  base: "./",
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
        // What every page needs loads as two chunks (the libraries, and the app's own code) rather than a
        // handful of small ones that compress worse. Only what the entry imports statically: the offline
        // models stay in their own chunk, loaded when no proxy is used, and Markdown comes with the first reply.
        codeSplitting: {
          groups: [
            {
              name: "runtime",
              test: /node_modules[\\/](?!marked|dompurify|highlight\.js)/,
              tags: ["$initial"],
            },
            // The entry stays out: its top-level await would hold this chunk unevaluated, and a chunk
            // loaded meanwhile (the in-memory store, the offline models) that imports it would wait forever.
            { name: "app", test: /[\\/]src[\\/](?!main\.ts$)/, tags: ["$initial"] },
          ],
        },
      },
    },
  },
});
