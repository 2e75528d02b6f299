// A local Hugging Face Hub, its own process, for the tests (HF_ENDPOINT points at it). It answers as
// the Hub documents and as huggingface_hub's file_download.py and huggingface.js read it:
//   HEAD/GET /{repo}/resolve/{rev}/{path} and /datasets/{repo}/resolve/{rev}/{path}: the file, with
//     X-Repo-Commit and ETag (the git blob oid); a large (LFS) file is a 302 to a second host (another
//     port of this process) with X-Linked-Etag (its sha256) and X-Linked-Size; Range requests honoured;
//   GET /api/{models|datasets}/{repo}[/revision/{rev}]: { id, sha, siblings: [{ rfilename }], gated, private };
//   GET /api/{models|datasets}/{repo}/tree/{rev}[/{path}]?recursive=: the tree listing, paginated by a
//     Link: <…&cursor=…>; rel="next" header;
//   errors as X-Error-Code headers: 401 GatedRepo without a token, 403 GatedRepo with one not granted;
//   a refused token: 401 RepoNotFound "Invalid credentials in Authorization header"; an unknown repo:
//   401 RepoNotFound anonymously, 404 with a token (the Hub hides private repos that way);
//   404 RevisionNotFound, 404 EntryNotFound.
// Usage: node hub-server.mjs <config.json>. Config: { repos: [{ type, name, gated?, access?: [tokens],
//   revisions: [{ name, dir }], lfs?: [paths] }], tokens?: [valid tokens], lfsThreshold?: bytes,
//   pageSize?: entries, stall?: [{ repo, path, afterBytes }] (the first body of that file stops after
//   afterBytes and the socket stays open), log?: file }. Prints `hub <port> cdn <port>` when ready.
// A request is logged (to `log`) as one JSON line: method, path, whether it carried a token, status;
// never the token itself.
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, sep } from 'node:path';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const LFS_THRESHOLD = config.lfsThreshold ?? 1_000_000;
const PAGE_SIZE = config.pageSize ?? 1000;
const tokens = new Set(config.tokens ?? []);
const stalls = [...(config.stall ?? [])];

function sha(alg, data) {
  return createHash(alg).update(data).digest('hex');
}

function walk(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((e) => statSync(join(dir, e)).isFile())
    .map((e) => e.split(sep).join('/'))
    .sort();
}

// repos: key `${type}:${name}` → { gated, access, revisions: Map(name → rev), byCommit: Map(sha → rev) }
const repos = new Map();
const blobs = new Map(); // sha256 → { data } for the second host
for (const r of config.repos) {
  const repo = { ...r, revisions: new Map(), byCommit: new Map() };
  for (const rev of r.revisions) {
    const files = new Map();
    for (const path of walk(rev.dir)) {
      const data = readFileSync(join(rev.dir, path));
      const lfs = data.length > LFS_THRESHOLD || (r.lfs ?? []).includes(path);
      const gitOid = sha('sha1', Buffer.concat([Buffer.from(`blob ${data.length}\0`), data]));
      const sha256 = sha('sha256', data);
      // An LFS file's git blob is its pointer file; its ETag is the pointer's oid, as on the Hub.
      const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${data.length}\n`;
      const file = {
        path,
        data,
        lfs,
        sha256,
        oid: lfs ? sha('sha1', `blob ${pointer.length}\0${pointer}`) : gitOid,
        pointerSize: pointer.length,
      };
      files.set(path, file);
      if (lfs) blobs.set(sha256, file);
    }
    const commit = sha('sha1', `${r.type}/${r.name}@${rev.name}\n${[...files.values()].map((f) => `${f.path} ${f.oid}`).join('\n')}`);
    const revision = { name: rev.name, commit, files };
    repo.revisions.set(rev.name, revision);
    repo.byCommit.set(commit, revision);
  }
  repos.set(`${r.type}:${r.name}`, repo);
}

function log(entry) {
  if (config.log) appendFileSync(config.log, `${JSON.stringify(entry)}\n`);
}

function fail(res, status, code, message) {
  const headers = { 'content-type': 'application/json', 'x-error-message': message };
  if (code) headers['x-error-code'] = code;
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error: message }));
  return status;
}

/** Who is asking: { token: string|null, valid: boolean }. */
function caller(req) {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  const token = m ? m[1] : null;
  return { token, valid: token !== null && tokens.has(token) };
}

/** The repo and revision, or the error status already sent. */
function lookup(req, res, type, name, rev) {
  const who = caller(req);
  if (who.token !== null && !who.valid) return fail(res, 401, 'RepoNotFound', 'Invalid credentials in Authorization header');
  const repo = repos.get(`${type}:${name}`);
  if (!repo)
    return who.valid ? fail(res, 404, 'RepoNotFound', 'Repository not found') : fail(res, 401, 'RepoNotFound', 'Repository not found');
  if (repo.gated) {
    const what = `Access to ${type} ${name} is restricted`;
    if (!who.valid)
      return fail(res, 401, 'GatedRepo', `${what}. You must have access to it and be authenticated to access it. Please log in.`);
    if (!(repo.access ?? []).includes(who.token)) return fail(res, 403, 'GatedRepo', `${what} and you are not in the authorized list.`);
  }
  const revision = repo.revisions.get(rev) ?? repo.byCommit.get(rev);
  if (!revision) return fail(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
  return { repo, revision };
}

/** Sends `data` honouring a single `Range: bytes=a-b`; stalls the first body of a file named in `stall`. */
function sendBody(req, res, data, headers, stallKey) {
  let start = 0;
  let end = data.length - 1;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let status = 200;
  if (range && data.length > 0) {
    start = range[1] === '' ? Math.max(0, data.length - Number(range[2])) : Number(range[1]);
    end = range[1] !== '' && range[2] !== '' ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
    if (start > end) {
      res.writeHead(416, { 'content-range': `bytes */${data.length}` });
      res.end();
      return 416;
    }
    status = 206;
    headers['content-range'] = `bytes ${start}-${end}/${data.length}`;
  }
  const body = data.subarray(start, end + 1);
  res.writeHead(status, { ...headers, 'accept-ranges': 'bytes', 'content-length': String(body.length) });
  if (req.method === 'HEAD') {
    res.end();
    return status;
  }
  const i = body.length > 1 ? stalls.findIndex((s) => s.key === stallKey) : -1;
  if (i >= 0) {
    const { afterBytes } = stalls[i];
    stalls.splice(i, 1);
    res.write(body.subarray(0, Math.min(afterBytes, body.length - 1)));
    log({ stalled: stallKey, sent: Math.min(afterBytes, body.length - 1) });
    return status; // the socket stays open, the body never ends
  }
  res.end(body);
  return status;
}
for (const s of stalls) s.key = `${s.type ?? 'model'}:${s.repo}/${s.path}`;

function resolveFile(req, res, type, name, rev, path) {
  const found = lookup(req, res, type, name, rev);
  if (typeof found === 'number') return found;
  const file = found.revision.files.get(path);
  if (!file) return fail(res, 404, 'EntryNotFound', 'Entry not found');
  const headers = { 'x-repo-commit': found.revision.commit, etag: `"${file.oid}"`, 'content-type': 'application/octet-stream' };
  if (file.lfs) {
    headers['x-linked-etag'] = `"${file.sha256}"`;
    headers['x-linked-size'] = String(file.data.length);
    headers.location = `http://127.0.0.1:${cdnPort}/blobs/${file.sha256}?key=${encodeURIComponent(`${type}:${name}/${path}`)}`;
    res.writeHead(302, headers);
    res.end();
    return 302;
  }
  return sendBody(req, res, file.data, headers, `${type}:${name}/${path}`);
}

function repoInfo(req, res, type, name, rev) {
  const found = lookup(req, res, type, name, rev);
  if (typeof found === 'number') return found;
  const body = {
    _id: found.revision.commit.slice(0, 24),
    id: name,
    ...(type === 'model' ? { modelId: name } : {}),
    sha: found.revision.commit,
    private: false,
    gated: found.repo.gated ? 'manual' : false,
    disabled: false,
    siblings: [...found.revision.files.keys()].map((rfilename) => ({ rfilename })),
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
  return 200;
}

function tree(req, res, url, type, name, rev, dir) {
  const found = lookup(req, res, type, name, rev);
  if (typeof found === 'number') return found;
  const recursive = url.searchParams.get('recursive') === 'true';
  const prefix = dir === '' ? '' : `${dir}/`;
  const entries = new Map();
  for (const f of found.revision.files.values()) {
    if (!f.path.startsWith(prefix)) continue;
    const parts = f.path.slice(prefix.length).split('/');
    // Folders on the way, then the file (recursive), or only the first level.
    for (let i = 1; i < parts.length && (recursive || i === 1); i++) {
      const p = prefix + parts.slice(0, i).join('/');
      entries.set(p, { type: 'directory', oid: sha('sha1', p), size: 0, path: p });
    }
    if (recursive || parts.length === 1) {
      entries.set(f.path, {
        type: 'file',
        oid: f.oid,
        size: f.lfs ? f.pointerSize : f.data.length,
        path: f.path,
        ...(f.lfs ? { lfs: { oid: f.sha256, size: f.data.length, pointerSize: f.pointerSize } } : {}),
      });
    }
  }
  if (dir !== '' && entries.size === 0) return fail(res, 404, 'EntryNotFound', `${dir} does not exist on "${rev}"`);
  const all = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  const from = Number(url.searchParams.get('cursor') ?? '0');
  const page = all.slice(from, from + PAGE_SIZE);
  const headers = { 'content-type': 'application/json' };
  if (from + PAGE_SIZE < all.length) {
    const next = new URL(url.href);
    next.searchParams.set('cursor', String(from + PAGE_SIZE));
    headers.link = `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next"`;
  }
  res.writeHead(200, headers);
  res.end(JSON.stringify(page));
  return 200;
}

function route(req, res) {
  const url = new URL(req.url, `http://${req.headers.host}`);
  const segs = url.pathname.split('/').slice(1).map(decodeURIComponent);
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, null, 'Method not allowed');
  if (segs[0] === 'api' && (segs[1] === 'models' || segs[1] === 'datasets')) {
    const type = segs[1] === 'models' ? 'model' : 'dataset';
    const rest = segs.slice(2);
    const at = rest.findIndex((s) => s === 'revision' || s === 'tree');
    const name = (at < 0 ? rest : rest.slice(0, at)).join('/');
    if (at < 0) return repoInfo(req, res, type, name, 'main');
    if (rest[at] === 'revision') return repoInfo(req, res, type, name, rest.slice(at + 1).join('/'));
    return tree(req, res, url, type, name, rest[at + 1] ?? 'main', rest.slice(at + 2).join('/'));
  }
  const type = segs[0] === 'datasets' ? 'dataset' : 'model';
  const rest = type === 'dataset' ? segs.slice(1) : segs;
  const at = rest.indexOf('resolve');
  if (at > 0 && rest.length > at + 2)
    return resolveFile(req, res, type, rest.slice(0, at).join('/'), rest[at + 1], rest.slice(at + 2).join('/'));
  return fail(res, 404, null, 'Not found');
}

const hub = createServer((req, res) => {
  const status = route(req, res);
  log({ host: 'hub', method: req.method, path: req.url, token: req.headers.authorization !== undefined, status });
});

// The second host, as the Hub's file CDN: content by sha256; it never needs (nor should get) the token.
const cdn = createServer((req, res) => {
  const url = new URL(req.url, `http://${req.headers.host}`);
  const m = /^\/blobs\/([0-9a-f]{64})$/.exec(url.pathname);
  const file = m ? blobs.get(m[1]) : undefined;
  let status;
  if (!file) status = fail(res, 404, null, 'Not found');
  else
    status = sendBody(
      req,
      res,
      file.data,
      { etag: `"${file.sha256}"`, 'content-type': 'application/octet-stream' },
      url.searchParams.get('key'),
    );
  log({ host: 'cdn', method: req.method, path: url.pathname, token: req.headers.authorization !== undefined, status });
});

let cdnPort = 0;
cdn.listen(0, '127.0.0.1', () => {
  cdnPort = cdn.address().port;
  hub.listen(config.port ?? 0, '127.0.0.1', () => {
    process.stdout.write(`hub ${hub.address().port} cdn ${cdnPort}\n`);
  });
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
