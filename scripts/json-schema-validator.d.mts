import type { Plugin } from "vite";
export const META_SCHEMA: string;
export function metaValidatorSource(): string;
export function lharValidatorSource(): string;
export function jsonSchemaMetaValidator(): Plugin;
