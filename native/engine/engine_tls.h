// TLS for the native engine, on the OpenSSL that Node itself links (its headers come with Node's,
// and the `node` binary exports the symbols, so the addon adds no second OpenSSL). One TlsClient
// per engine holds the SSL_CTX (verification, client certificate, ALPN) and the last session the
// server handed out, so every reconnect tries to resume; each connection gets its own SSL on its
// non-blocking socket, and the handshake is stepped from the epoll loop (engine_loop_conn.cc).
#pragma once

#include <openssl/ssl.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace servebench {

struct TlsOptions {
  std::string servername;      // SNI and the name the certificate must match (an IP literal: matched as an IP)
  bool verify = true;          // false: --insecure
  std::string ca_file;         // --ca-cert: PEM file of extra trusted CAs ('' none)
  std::string extra_ca_file;   // NODE_EXTRA_CA_CERTS ('' none)
  std::string system_ca_file;  // the distribution's bundle, where Node's OpenSSL directory lacks it
  std::string cert_file;       // --client-cert (PEM chain)
  std::string key_file;        // --client-key (PEM)
};

class TlsClient {
 public:
  // Throws std::runtime_error naming what could not be loaded (never file contents).
  explicit TlsClient(const TlsOptions& options);
  ~TlsClient();
  TlsClient(const TlsClient&) = delete;
  TlsClient& operator=(const TlsClient&) = delete;

  // A client SSL for a connected socket: SNI, hostname check, ALPN, the cached session if any.
  // Null when OpenSSL cannot allocate one.
  SSL* NewSsl(int fd);
  // The reason of a failed handshake or read: "tls: <reason>" where reason names verification
  // failures plainly (unknown CA, expired, hostname mismatch) with OpenSSL's own words after.
  static std::string Error(SSL* ssl, int ret, int ssl_error, int saved_errno);
  const TlsOptions& options() const { return options_; }

 private:
  static int OnNewSession(SSL* ssl, SSL_SESSION* session);
  TlsOptions options_;
  SSL_CTX* ctx_ = nullptr;
  bool ip_ = false;
  std::mutex mu_;
  SSL_SESSION* session_ = nullptr;  // the latest resumable session (guarded by mu_)
};

// One SSL_read on a non-blocking connection into buf: >0 bytes, 0 at the end of the stream, −1 with
// *err an errno value (EAGAIN: nothing now), −2 with *tls_error set (a TLS protocol failure). The
// engine's read path and the fuzz target (fuzz/http1_sse_fuzz.cc, TLS mode) both read through it.
ssize_t TlsReadSome(SSL* ssl, char* buf, size_t cap, int* err, std::string* tls_error);

// Whether one readiness gets another read: SSL_read returns at most one TLS record (≤ 16 KiB) per
// call, so TLS connections take more rounds than plain ones, and a record OpenSSL already holds is
// read before going back to epoll (it would never be signalled again).
inline bool TlsKeepReading(SSL* ssl, int round) { return round < 64 || SSL_has_pending(ssl) == 1; }

// After a read that returned bytes: true when OpenSSL holds nothing more and its last recv() came
// back short, so the socket is empty and the readiness can end without a recv() that says EAGAIN
// (as a short recv() ends a plain connection's). Level-triggered epoll signals what arrives later.
bool TlsReadDrained(SSL* ssl);

}  // namespace servebench
