import type { Plugin } from "vite";
/** V8's explicit compile hint: compile every function of this file as it loads. */
export const EAGER_COMPILE_HINT: string;
export function wantsCompileHint(
  chunk: { moduleIds: readonly string[]; isEntry: boolean; name: string; fileName: string },
  modules: readonly string[],
  initialChunks: readonly string[],
): boolean;
export function withCompileHint(code: string): string;
export function sourceMapWithCompileHint(json: string): string;
/** The build's plugin: the compile hint on the chunks that hold one of `modules`. */
export function eagerCompileHints(
  modules: readonly string[],
  options: { initialChunks: readonly string[] },
): Plugin;
