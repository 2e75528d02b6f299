// TLS for the fast mock (`servebench mock --fast --tls-cert --tls-key [--tls-client-ca]`), on
// Node's OpenSSL as the engine's client is (engine_tls.h): a server SSL_CTX, and the non-blocking
// steps the worker's epoll loop (mockserver.cc) takes on each connection.
#pragma once

#include <openssl/ssl.h>
#include <sys/types.h>

#include <string>

namespace servebench {

class MockTls {
 public:
  // Throws std::runtime_error naming the file that did not load (never its contents). A client CA
  // file makes client certificates required (mTLS).
  MockTls(const std::string& cert_file, const std::string& key_file, const std::string& client_ca_file);
  ~MockTls();
  MockTls(const MockTls&) = delete;
  MockTls& operator=(const MockTls&) = delete;
  // A server SSL on an accepted socket; null when OpenSSL cannot allocate one.
  SSL* Accept(int fd) const;

 private:
  SSL_CTX* ctx_ = nullptr;
};

// One handshake step: 1 done, 0 wants to read, 2 wants to write, −1 failed.
int MockTlsHandshake(SSL* ssl);
// recv()/send() over TLS: bytes, 0 at the end of the stream, −1 with errno set (EAGAIN: retry later).
ssize_t MockTlsRecv(SSL* ssl, char* buf, size_t n);
ssize_t MockTlsSend(SSL* ssl, const char* buf, size_t n);
// Frees the SSL without close_notify (the socket closes right after).
void MockTlsFree(SSL* ssl);

}  // namespace servebench
