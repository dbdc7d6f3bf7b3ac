export function findChromium(): Promise<string | undefined>;
export const CHROMIUM_ARGS: string[];
