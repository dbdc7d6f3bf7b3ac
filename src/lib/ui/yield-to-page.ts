/** Gives the page's thread back between slices of work (a task of its own after each). */
export type Yield = () => Promise<void>;

/** Resolves in a task of its own, after what the page has waiting (input, a frame), with no timer's delay. */
export const yieldToPage: Yield = () =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
