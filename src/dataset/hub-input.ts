// --input-file hf://datasets/ORG/NAME[@REVISION]/PATH: a dataset file's Hub copy (a trace such as
// BurstGPT's CSV as a Hub dataset repo holds it), downloaded into the Hugging Face cache by src/hub
// (or found there, offline) and then read as the local file it becomes. The hf:// form is
// huggingface_hub's HfFileSystem path (https://huggingface.co/docs/huggingface_hub/guides/hf_file_system).

import { InvalidArgumentError } from '../errors.js';
import { hubFile } from '../hub/index.js';

const PREFIX = 'hf://datasets/';

/** True when `file` names a file of a Hub dataset repo. */
export function isHubPath(file: string): boolean {
  return file.startsWith(PREFIX);
}

/** The repo, revision and path of an hf://datasets/… path; a malformed one is one line naming the flag. */
export function parseHubPath(file: string): { repo: string; revision: string | undefined; path: string } {
  const m = /^hf:\/\/datasets\/([^/@]+\/[^/@]+)(?:@([^/]+))?\/(.+)$/.exec(file);
  if (!m) {
    throw new InvalidArgumentError(`--input-file: ${file} is not a Hub path; expected hf://datasets/ORG/NAME[@REVISION]/PATH`);
  }
  // A revision with a slash (refs/pr/1) is written %2F-encoded, as huggingface_hub does.
  return { repo: m[1], revision: m[2] === undefined ? undefined : decodeURIComponent(m[2]), path: m[3] };
}

/** The local path of the dataset file: `file` itself, or its Hub copy in the cache (downloaded if needed). */
export async function localInputFile(file: string): Promise<string> {
  if (!isHubPath(file)) return file;
  const { repo, revision, path } = parseHubPath(file);
  return hubFile({ repoType: 'dataset', repo, path, ...(revision !== undefined ? { revision } : {}) });
}
