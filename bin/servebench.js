#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` / `npm run build`).
import('../dist/cli/main.js')
  .then((m) => m.main(process.argv.slice(2)))
  .catch((err) => {
    process.stderr.write(`servebench: ${err && err.message ? err.message : err}\n`);
    process.exit(1);
  });
