/** Messages between the page and the Markdown worker. */
export interface RenderRequest {
  id: number;
  source: string;
}

export type RenderResponse = { id: number; blocks: string[] } | { id: number; error: string };
