export function importedPackages(source: string): Set<string>;
export function undeclaredImports(projectRoot: string, declared: Set<string>): string[];
