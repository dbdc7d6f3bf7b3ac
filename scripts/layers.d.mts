/** The browser code's layers, lowest first (see layers.mjs). */
export const LAYERS: readonly (readonly string[])[];
