/** Where the theme choice is remembered; public/theme-boot.js reads the same key before the first paint. */
export const THEME_KEY = "pi-playground:theme";

/** "system" follows `prefers-color-scheme`; the others override it. */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/** A stored value back to a choice; anything unknown (or nothing) means following the system. */
export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** The root's `data-theme` for a choice: absent for "system", so the stylesheet's media query decides. */
export function themeAttribute(choice: ThemeChoice): string | undefined {
  return choice === "system" ? undefined : choice;
}
