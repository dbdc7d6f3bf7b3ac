// Applies the remembered theme choice before the first paint, so a page set to Light or Dark never
// flashes the other scheme. A classic script in <head> blocks rendering until it has run; a module
// script would not. It mirrors ThemePreference (src/lib/ui/theme.svelte.ts); a unit test keeps the two in
// agreement.
try {
  var choice = localStorage.getItem("pi-playground:theme");
  if (choice === "light" || choice === "dark") document.documentElement.dataset.theme = choice;
} catch {
  // No storage: follow the system's scheme.
}
