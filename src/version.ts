// servebench's own version (package.json's), written into every export so runs can be told apart.
import fs from 'node:fs';

let cached: string | null = null;

export function servebenchVersion(): string {
  if (cached === null) {
    // src/version.ts and dist/version.js both sit one level below the package root.
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  }
  return cached;
}
