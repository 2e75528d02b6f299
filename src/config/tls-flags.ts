// --ca-cert, --insecure (-k), --client-cert, --client-key → RunConfig.tls. Files are checked for
// readability here (one line naming the flag, exit 2); their contents are read only by the transports.
import fs from 'node:fs';
import { InvalidArgumentError } from '../errors.js';
import type { TlsSettings } from '../transport/tls.js';

export interface TlsFlags {
  'ca-cert'?: string;
  insecure?: boolean;
  'client-cert'?: string;
  'client-key'?: string;
}

/** The one-line warning --insecure prints at start (and the export's config repeats). */
export const INSECURE_WARNING = '--insecure: TLS certificates are not verified; the server may not be who it claims to be';

function readable(flag: string, file: string | undefined): string | null {
  if (file === undefined) return null;
  if (file.trim() === '') throw new InvalidArgumentError(`--${flag}: must not be empty`);
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new InvalidArgumentError(`--${flag}: cannot read ${file}`);
  }
  return file;
}

export function parseTlsFlags(f: TlsFlags): TlsSettings {
  const client_cert = readable('client-cert', f['client-cert']);
  const client_key = readable('client-key', f['client-key']);
  if ((client_cert === null) !== (client_key === null))
    throw new InvalidArgumentError(client_cert === null ? '--client-key: needs --client-cert' : '--client-cert: needs --client-key');
  const insecure = f.insecure === true;
  return { insecure, ca_cert: readable('ca-cert', f['ca-cert']), client_cert, client_key, warning: insecure ? INSECURE_WARNING : null };
}
