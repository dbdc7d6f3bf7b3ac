import { positiveInt } from "../../shared/positive-int.ts";

/**
 * How deeply a value may nest when it comes from outside (an imported file, pasted JSON). Browsers store and
 * copy values recursively: structured clone, IndexedDB and `JSON.stringify` overflow the stack somewhere past
 * a few thousand levels, and an overflow while saving looks like a full disk. No real message comes near
 * 200 levels, so values deeper than that are refused where they enter, with the place named. A build may
 * change it (`VITE_MAX_NESTING_DEPTH`), up to 1,000 levels, well short of any browser's stack.
 */
export const MAX_NESTING_DEPTH = Math.min(1_000, positiveInt(import.meta.env?.VITE_MAX_NESTING_DEPTH) ?? 200);
