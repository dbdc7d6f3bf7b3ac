/** A remembered on/off preference in localStorage; without storage it simply is not remembered. */
export interface FlagStore {
  read(key: string, fallback: boolean): boolean;
  write(key: string, value: boolean): void;
}

export function localFlags(storage: Pick<Storage, "getItem" | "setItem"> | undefined): FlagStore {
  return {
    read(key, fallback) {
      try {
        const value = storage?.getItem(key);
        return value === null || value === undefined ? fallback : value === "1";
      } catch {
        return fallback;
      }
    },
    write(key, value) {
      try {
        storage?.setItem(key, value ? "1" : "0");
      } catch {
        // Only the preference is lost.
      }
    },
  };
}
