import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";
import { jsonSchemaMetaValidator } from "./scripts/json-schema-validator.mjs";

/**
 * The viewer of a session exported as HTML: the app's own components, read-only, on the session a file
 * carries (src/viewer/). Built after the app (`npm run build`) into dist/viewer/ as one script and one
 * stylesheet with fixed names, which the export fetches and inlines into the file; nothing else is loaded,
 * so every lazily loaded part of the app is bundled into the one script.
 */
export default defineConfig({
  base: "./",
  publicDir: false,
  logLevel: "warn",
  plugins: [svelte(), jsonSchemaMetaValidator()],
  // An exported file has no worker: Markdown of any length is rendered in the page.
  define: { "import.meta.env.VITE_MARKDOWN_IN_PAGE": JSON.stringify("1") },
  worker: { format: "es" },
  build: {
    target: "es2022",
    outDir: "dist/viewer",
    emptyOutDir: true,
    sourcemap: false,
    cssCodeSplit: false,
    rollupOptions: {
      input: "src/viewer/main.ts",
      onwarn(warning, defaultHandler) {
        // pi-ai's provider-env module imports node:fs on a path the browser build never runs.
        if (warning.message.includes("externalized for browser compatibility")) return;
        defaultHandler(warning);
      },
      output: {
        codeSplitting: false,
        entryFileNames: "viewer.js",
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith(".css")) ? "viewer.css" : "[name][extname]",
      },
    },
  },
});
