export const LOADED_AS_ASKED: string[];
export function resolveDependencies(file: string, deps: string[]): string[];
