import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";
import svelteConfig from "./svelte.config.js";
import { LAYERS } from "./scripts/layers.mjs";

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
    // Type information for plain TypeScript (Svelte files get theirs from the project service below).
    files: ["src/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    ignores: ["**/*.svelte.ts"],
    languageOptions: {
      parserOptions: {
        project: ["./tsconfig.json", "./tsconfig.node.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Rules that need types: a promise nobody awaits or handles, a promise where a callback is expected,
    // a switch that forgets a case of a union. A `default:` does not stand in for the cases it hides: a
    // switch on a union names every member, so adding one (a message role, an entry type) fails lint at
    // each switch that has to decide what to do with it.
    files: ["src/**/*.ts", "src/**/*.svelte", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // State classes keep their reactive state in $state fields; a Map or Date that is a local temporary or
    // private bookkeeping is not state, and wrapping it in Svelte's reactive versions would only cost.
    files: ["**/*.svelte.ts"],
    rules: { "svelte/prefer-svelte-reactivity": "off" },
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
  ...layerRules(),
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
    // The pi extension is one file pi loads on its own (and people copy): pi's packages and Node only. The
    // protocol's types come from src/shared, as type imports, which pi's loader erases.
    files: ["src/pi-extension/**"],
    ignores: ["src/pi-extension/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "**/lib/**", "*.svelte"],
              message: "The pi extension imports nothing of the playground's browser or server code.",
            },
            {
              group: ["**/shared/**"],
              allowTypeImports: true,
              message: "The pi extension may import the playground's shared types only (import type).",
            },
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

function layerRules() {
  const layers = LAYERS;
  const features = layers.at(-1);
  const server = { group: ["**/server/**"], message: "Browser code must not import server code." };
  const serverSource = String.raw`/(^|\/)server\//`;
  const configs = layers.flatMap((folders, rank) =>
    folders.map((folder) => {
      const above = layers.slice(rank + 1).flat();
      const siblings = folders === features ? features.filter((other) => other !== folder) : [];
      const forbidden = [...above, ...siblings];
      const message = `src/lib/${folder} may import only its own layer and those below it (see layerRules in eslint.config.js).`;
      const forbiddenSource = String.raw`/(^|\/)(${forbidden.join("|")})\//`;
      return {
        files: [`src/lib/${folder}/**`],
        rules: {
          "no-restricted-imports": [
            "error",
            {
              patterns: [
                server,
                ...(forbidden.length > 0
                  ? [{ group: forbidden.map((name) => `**/${name}/**`), message }]
                  : []),
              ],
            },
          ],
          "no-restricted-syntax": [
            "error",
            ...dynamicImportRules(serverSource, server.message),
            ...(forbidden.length > 0 ? dynamicImportRules(forbiddenSource, message) : []),
          ],
        },
      };
    }),
  );
  return [
    {
      files: ["src/lib/**", "src/*.ts", "src/*.svelte"],
      rules: {
        "no-restricted-imports": ["error", { patterns: [server] }],
        "no-restricted-syntax": ["error", ...dynamicImportRules(serverSource, server.message)],
      },
    },
    ...configs,
  ];
}

/** A dynamic import and a type's `typeof import()` whose path matches `source` (an esquery regular expression). */
function dynamicImportRules(source, message) {
  return [
    {
      selector: `ImportExpression[source.value=${source}]`,
      message: `${message} (a dynamic import counts too)`,
    },
    {
      selector: `TSImportType[source.value=${source}]`,
      message: `${message} (a type's import() counts too)`,
    },
  ];
}
