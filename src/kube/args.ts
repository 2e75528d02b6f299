// The profile flags of a `servebench kube` command line, token for token as the user typed them:
// kube's own flags (and the command's name) are taken out, everything else is kept verbatim and in
// order, so each pod's `servebench profile` reads exactly what it would have read on this host.
// yargs has already checked the whole line (cli/kube.ts); this only splits it.

/** `names`: kube's own flags (kebab-case) → whether each is a boolean (takes no value). */
export function profileArgs(tokens: readonly string[], command: string, names: ReadonlyMap<string, boolean>): string[] {
  const out: string[] = [];
  let commandSeen = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === '--') {
      out.push(...tokens.slice(i));
      break;
    }
    if (!commandSeen && t === command) {
      commandSeen = true;
      continue;
    }
    const own = ownFlag(t, names);
    if (own === null) {
      out.push(t);
      continue;
    }
    // A value-taking flag written `--flag value` takes the next token too; a boolean may be followed by true/false.
    const next = tokens[i + 1];
    if (!own.inline && (own.boolean ? next === 'true' || next === 'false' : next !== undefined)) i++;
  }
  return out;
}

/** Whether `t` is one of kube's own flags (`--flag`, `--flag=v`, `--no-flag` for a boolean, or camelCase, which yargs also accepts). */
function ownFlag(t: string, names: ReadonlyMap<string, boolean>): { boolean: boolean; inline: boolean } | null {
  const m = /^--([^=]+)(=.*)?$/s.exec(t);
  if (!m) return null;
  const name = m[1].replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  const inline = m[2] !== undefined;
  if (names.has(name)) return { boolean: names.get(name) === true, inline };
  const negated = name.startsWith('no-') ? name.slice(3) : null;
  if (negated !== null && names.get(negated) === true) return { boolean: true, inline };
  return null;
}
