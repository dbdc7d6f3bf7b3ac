import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";
import svelteConfig from "./svelte.config.js";

export default ts.config(
  {
    ignores: [
      "dist/",
      "dist-proxy/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench/results.json",
      "bench/.out/",
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: [".svelte"],
        parser: ts.parser,
        svelteConfig,
      },
    },
  },
  {
    // Browser code never imports the server, and the server never imports browser code.
    files: ["src/lib/**", "src/*.ts", "src/*.svelte"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**"], message: "Browser code must not import server code." }] },
      ],
    },
  },
  {
    files: ["src/server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/lib/**", "*.svelte"], message: "Server code must not import browser code." },
          ],
        },
      ],
    },
  },
  {
    // Code both sides use: free of the browser and of Node, and importing neither side.
    files: ["src/shared/**"],
    ignores: ["src/shared/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "**/lib/**", "*.svelte"],
              message: "Shared code imports neither side.",
            },
            { group: ["node:*"], message: "Shared code must run in the browser too." },
          ],
        },
      ],
    },
  },
);
