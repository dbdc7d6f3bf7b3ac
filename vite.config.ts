/// <reference types="vitest/config" />
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig, type Plugin } from "vite";
import { listenAddress } from "./src/server/proxy-config.ts";
import { playgroundApi, serverOptions } from "./src/server/vite-plugin.ts";
import { jsonSchemaMetaValidator } from "./scripts/json-schema-validator.mjs";
import { eagerCompileHints } from "./scripts/compile-hints.mjs";
import { playwright } from "@vitest/browser-playwright";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium-path.mjs";

const { host, port } = listenAddress(process.env);
const shared = serverOptions(host, process.env);
// The component tests' browser: the Chromium the e2e tests drive (`npm run test:unit` ensures one first).
const chromium = await findChromium();

export default defineConfig({
  // Relative asset URLs: the built app runs from any static host under any path (GitHub Pages, a docs site).
  base: "./",
  plugins: [
    svelte(),
    playgroundApi({ host }),
    jsonSchemaMetaValidator(),
    // The code that opening the inspector runs is compiled as its chunks load (while the page is idle,
    // ahead of the click), not function by function on the click's main thread.
    eagerCompileHints(
      [
        "src/InspectorPane.svelte",
        "src/lib/inspector/FactsView.svelte",
        "src/lib/ui/VirtualList.svelte",
        "src/lib/ui/SearchBar.svelte",
      ],
      { initialChunks: ["app"] },
    ),
  ],
  server: { ...shared, port: port ?? 5173 },
  preview: { ...shared, port: port ?? 4173, strictPort: true },
  test: {
    setupFiles: ["src/test-setup.ts"],
    // A timeout here only catches a test that hangs; it is not a speed check (speed is measured by the
    // benchmarks, against a floor). The suite must pass on a machine whose cores are busy with other
    // work, where the default 5 s cut off property tests and large inputs that take 0.5 s when idle.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two kinds of test (docs/testing.md): logic in Node (`*.test.ts`), and components rendered in a real
    // Chromium (`*.browser.test.ts`, Vitest's browser mode driving it through Playwright).
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["src/**/*.browser.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["src/**/*.browser.test.ts"],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { args: CHROMIUM_ARGS, ...(chromium ? { executablePath: chromium } : {}) },
            }),
            instances: [{ browser: "chromium" }],
            // The test page's server; Vitest takes the next free port when this one is taken.
            api: { port: Number(process.env.VITEST_BROWSER_PORT ?? 63315), host: "127.0.0.1" },
            screenshotFailures: false,
          },
        },
      },
    ],
  },
  // The Markdown worker loads its highlighter as a chunk of its own, which needs an ES module worker. The
  // import worker checks messages with the kinds' registry, whose views it never loads: they are left out.
  worker: { format: "es", plugins: () => [viewsLeftOut(), jsonSchemaMetaValidator()] },
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
        // What every page needs loads as one chunk (libraries and the app's own code together compress
        // better than apart), not a handful of small ones. Only what the entry imports statically: the
        // Agent, the validators, the offline models, Markdown and every panel load as chunks of their own.
        codeSplitting: {
          groups: [
            // The entry stays out: its top-level await would hold this chunk unevaluated, and a chunk
            // loaded meanwhile (the in-memory store, the offline models) that imports it would wait forever.
            {
              name: "app",
              test: /([\\/]src[\\/](?!main\.ts$))|(node_modules[\\/](?!marked|dompurify|highlight\.js))/,
              tags: ["$initial"],
            },
          ],
        },
      },
    },
  },
});

/** In a worker, a Svelte component is never shown: an import of one (a lazy view) yields nothing. */
function viewsLeftOut(): Plugin {
  return {
    name: "worker-views-left-out",
    enforce: "pre",
    load: (id) => (id.endsWith(".svelte") ? "export default undefined;" : undefined),
  };
}
