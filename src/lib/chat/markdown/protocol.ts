/** Messages between the page and the Markdown worker. */
export interface RenderRequest {
  id: number;
  source: string;
}

/**
 * `parsing`: the worker has what it needs (its code, and highlighting when the source has code) and starts
 * parsing now; the time budget counts from here. Then the blocks, or an error.
 */
export type RenderResponse =
  { id: number; parsing: true } | { id: number; blocks: string[] } | { id: number; error: string };
