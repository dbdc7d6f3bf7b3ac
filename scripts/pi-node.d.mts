export const PI_NODE_VERSION: string;
export const PI_NODE_CACHE: string;
export function findPiNode(): string | undefined;
export function ensurePiNode(): string;
