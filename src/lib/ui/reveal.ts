/** A request to bring one row of a list into view; the nonce makes a repeated request count again. */
export interface Reveal {
  index: number;
  nonce: number;
}
