// src/hub/: the only code that talks to the Hugging Face Hub, and the one reader and writer of its
// cache layout. It sits low: tokenizer/ and dataset/ use it; it imports only root files.
export { hubFile, hubListFiles, type HubFileRequest, type HubOptions } from './download.js';
export { cachedFile, cachedSnapshotFiles, isRepoId, repoCacheDir, repoFolderName, type RepoType } from './cache.js';
export { hfHome, hfHubCache, hubEndpoint, hubOffline, hubToken, hubTokenPath } from './env.js';
