// The browser code's layers, read by eslint.config.js (layerRules) and by the test that shows the rules fail.

/**
 * The browser code's layers, lowest first: a folder may import its own layer and those below, never one
 * above, and the feature UI folders (the last layer) never import each other. So dependencies point one way
 * (ui → messages → model-view → storage → agent → sessions → view-state → features) and no two folders
 * import each other. `ui` is widgets and page mechanics that know nothing of the domain: it imports no other
 * folder. `view-state` is the view state features share (the inspector's navigation, the selected fact, the
 * way back from a fork, the composer's pending prompt). A dynamic `import()` is held to the same rule (the
 * import rule does not see it), and so is a type's `typeof import()`. `src/*.svelte` and `src/*.ts` compose
 * the features (the inspector's tabs are registered there) and may import any folder.
 */
export const LAYERS = [
  ["ui"],
  ["notices"],
  ["messages"],
  ["model-view", "models"],
  ["storage"],
  ["agent"],
  ["sessions", "connection", "live"],
  ["view-state"],
  [
    "chat",
    "inspector",
    "injection",
    "examples",
    "header",
    "sidebar",
    "calls",
    "tree",
    "anatomy",
    "replays",
    "variants",
  ],
];
