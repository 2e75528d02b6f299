// The TLS mode of the http1_sse fuzz target (fuzz/run.sh http1_sse_tls): the fuzz input is sent by
// a TLS server over a socketpair and read back through the engine's own TLS read path
// (servebench::TlsClient for the SSL, TlsReadSome for each read, TlsKeepReading and TlsReadDrained
// for how long one readiness reads — native/engine/engine_tls.h), so the parser sees the decrypted bytes
// as an engine I/O thread does. The server cuts the bytes into records of fuzzer-chosen sizes and
// its ciphertext reaches the client's socket in fuzzer-chosen pieces (partial records: SSL_read
// says WANT_READ mid-record), and the client reads into a buffer that may be smaller than a record
// (what OpenSSL still holds is read through SSL_has_pending). Built with -DSERVEBENCH_FUZZ_TLS and
// -lssl -lcrypto.
#pragma once

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/engine_tls.h"

namespace tls_feed {

// A self-signed P-256 certificate for the server (verification is off on the client: what is fuzzed
// is the read path, not the chain check).
inline SSL_CTX* ServerCtx() {
  static SSL_CTX* ctx = [] {
    SSL_CTX* c = SSL_CTX_new(TLS_server_method());
    EVP_PKEY* key = EVP_EC_gen("P-256");
    X509* x = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_set_pubkey(x, key);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(x, name);
    X509_sign(x, key, EVP_sha256());
    if (c == nullptr || SSL_CTX_use_certificate(c, x) != 1 || SSL_CTX_use_PrivateKey(c, key) != 1) __builtin_trap();
    X509_free(x);
    EVP_PKEY_free(key);
    return c;
  }();
  return ctx;
}

inline servebench::TlsClient& Client() {
  static servebench::TlsClient* client = [] {
    servebench::TlsOptions o;
    o.servername = "localhost";
    o.verify = false;
    return new servebench::TlsClient(o);  // kept for the process: it holds the session to resume
  }();
  return *client;
}

// Deterministic sizes from the input: 1 + x % max.
struct Sizes {
  uint32_t x;
  size_t Next(size_t max) {
    x = x * 1103515245u + 12345u;
    return 1 + (x >> 8) % max;
  }
};

// Moves what the server's memory BIO holds to its socket, `piece` bytes at a time (0: all of it).
inline void Forward(BIO* wbio, int fd, size_t piece) {
  char buf[4096];
  for (;;) {
    const size_t want = piece == 0 ? sizeof buf : std::min(piece, sizeof buf);
    const int n = BIO_read(wbio, buf, static_cast<int>(want));
    if (n <= 0) return;
    if (write(fd, buf, static_cast<size_t>(n)) != n) __builtin_trap();  // the socketpair has room for a fuzz input
    if (piece != 0) return;
  }
}

struct Feed {
  // Decrypted bytes, as the engine hands them to the parser; returns false once the response is settled.
  std::function<bool(const char*, size_t)> on_bytes;
  std::function<void()> on_eof;
};

// Sends data[0, size) over TLS (closing the connection after it when `eof`) and reads it through the
// engine's TLS read path, calling feed.on_bytes per read and feed.on_eof at the end of the stream.
inline void Run(const uint8_t* data, size_t size, bool eof, uint32_t seed, const Feed& feed) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) __builtin_trap();
  for (int fd : sv) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL* client = Client().NewSsl(sv[0]);
  SSL* server = SSL_new(ServerCtx());
  BIO* wbio = BIO_new(BIO_s_mem());
  SSL_set_bio(server, BIO_new_socket(sv[1], BIO_NOCLOSE), wbio);
  SSL_set_accept_state(server);
  for (int i = 0; i < 50 && !(SSL_is_init_finished(client) && SSL_is_init_finished(server)); ++i) {
    SSL_do_handshake(client);
    SSL_do_handshake(server);
    Forward(wbio, sv[1], 0);
  }
  ERR_clear_error();
  if (!SSL_is_init_finished(client) || !SSL_is_init_finished(server)) __builtin_trap();
  Sizes sz{seed};
  static const size_t kRecordMax[] = {1, 7, 300, 16384};
  static const size_t kPieceMax[] = {1, 5, 100, 5000};
  static const size_t kBufMax[] = {1, 3, 64, 65536};
  const size_t record_max = kRecordMax[seed & 3];
  const size_t piece_max = kPieceMax[(seed >> 2) & 3];
  std::vector<char> buf(kBufMax[(seed >> 4) & 3]);
  for (size_t off = 0; off < size;) {
    const size_t n = std::min(size - off, sz.Next(record_max));
    if (SSL_write(server, data + off, static_cast<int>(n)) != static_cast<int>(n)) __builtin_trap();
    off += n;
  }
  if (eof) SSL_shutdown(server);  // close_notify; the socket's end follows
  bool settled = false;
  bool ended = false;
  // One readiness: the engine's loop shape (engine_loop_conn.cc OnReadable) on the engine's functions.
  auto readable = [&]() {
    for (int round = 0; !settled && !ended && servebench::TlsKeepReading(client, round); ++round) {
      int err = 0;
      std::string tls_error;
      const ssize_t n = servebench::TlsReadSome(client, buf.data(), buf.size(), &err, &tls_error);
      if (n > 0) {
        settled = !feed.on_bytes(buf.data(), static_cast<size_t>(n));
        if (servebench::TlsReadDrained(client)) return;  // the socket is empty: wait for the next piece
      } else if (n == 0) {
        ended = true;
      } else if (n == -2 || err != EAGAIN) {
        __builtin_trap();  // an honest server never makes the read path fail
      } else {
        return;
      }
    }
  };
  while (!settled && !ended && BIO_ctrl_pending(wbio) > 0) {
    Forward(wbio, sv[1], sz.Next(piece_max));
    readable();
  }
  if (eof) shutdown(sv[1], SHUT_WR);
  while (!settled && !ended) {
    const size_t before = BIO_ctrl_pending(wbio);
    readable();
    if (!settled && !ended && before == 0) {
      // Everything was delivered: without a close the read now waits (WANT_READ) for more.
      if (!eof) break;
    }
  }
  if (eof) feed.on_eof();
  SSL_free(client);
  SSL_free(server);
  close(sv[0]);
  close(sv[1]);
  ERR_clear_error();
}

}  // namespace tls_feed
