// Chromium compiles a function of a script the first time it is called, on the main thread. Opening the
// inspector called some 250 functions of its chunks for the first time: their compilation was a third of
// the open's script time. A chunk that starts with V8's explicit compile hint has all of its functions
// compiled as it loads (off the main thread, as it streams); the inspector's chunks load while the page is
// idle, ahead of the click, so the click then runs compiled code. Only chunks that load later than the page
// may carry it: on the page's first chunk it would compile the whole app before the first paint.

/** V8's explicit compile hint (Chrome 136): compile every function of this file as it loads. */
export const EAGER_COMPILE_HINT = "//# allFunctionsCalledOnLoad";

const slashes = (id) => id.replaceAll("\\", "/");

/**
 * Whether `chunk` gets the hint: it holds one of `modules` (paths from the project's root, such as
 * `src/lib/ui/VirtualList.svelte`). An entry or one of `initialChunks` (the chunks the page loads before
 * its first paint) holding one throws instead: the hint there would compile the whole chunk on every load.
 */
export function wantsCompileHint(chunk, modules, initialChunks) {
  const wanted = modules.map((module) => `/${slashes(module)}`);
  const held = chunk.moduleIds.map(slashes).find((id) => wanted.some((module) => id.endsWith(module)));
  if (held === undefined) return false;
  if (chunk.isEntry || initialChunks.includes(chunk.name))
    throw new Error(
      `${held} is in the page's first chunk (${chunk.fileName}): a compile hint there would compile all of it as the page loads. Import it dynamically, or take it off the list.`,
    );
  return true;
}

/**
 * The chunk's code with the hint as its first line: V8 reads the hint only there, so it goes in once the
 * bundle is complete (Vite puts a line of its own first as it finishes a chunk).
 */
export function withCompileHint(code) {
  return `${EAGER_COMPILE_HINT}\n${code}`;
}

/** The chunk's source map (JSON) for its code with the hint: every line one further down. */
export function sourceMapWithCompileHint(json) {
  const map = JSON.parse(json);
  return JSON.stringify({ ...map, mappings: `;${map.mappings}` });
}

/** The build's plugin: the hint on the chunks that hold one of `modules` (see `wantsCompileHint`). */
export function eagerCompileHints(modules, { initialChunks }) {
  const hinted = (chunk) => wantsCompileHint(chunk, modules, initialChunks);
  return {
    name: "eager-compile-hints",
    apply: "build",
    enforce: "post",
    // A hinted chunk's name changes with the hint: a cached copy without it is never taken for it.
    augmentChunkHash: (chunk) => (hinted(chunk) ? EAGER_COMPILE_HINT : undefined),
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== "chunk" || !hinted(output)) continue;
          output.code = withCompileHint(output.code);
          // The map file is written from its asset, made from the chunk's map before this hook.
          const map = bundle[`${output.fileName}.map`];
          if (map?.type === "asset" && typeof map.source === "string")
            map.source = sourceMapWithCompileHint(map.source);
        }
      },
    },
  };
}
