#include "mockserver/mockserver_tls.h"

#include <errno.h>
#include <openssl/err.h>

#include <algorithm>
#include <stdexcept>

namespace servebench {

namespace {

const unsigned char kHttp11[] = {'h', 't', 't', 'p', '/', '1', '.', '1'};

// ALPN: http/1.1 when the client offers it; a client that offers only others gets no ALPN.
int SelectAlpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in, unsigned int inlen,
               void*) {
  for (unsigned int i = 0; i < inlen;) {
    const unsigned int len = in[i];
    if (len == sizeof kHttp11 && i + 1 + len <= inlen && std::equal(kHttp11, kHttp11 + len, in + i + 1)) {
      *out = in + i + 1;
      *outlen = static_cast<unsigned char>(len);
      return SSL_TLSEXT_ERR_OK;
    }
    i += 1 + len;
  }
  return SSL_TLSEXT_ERR_NOACK;
}

// errno for an SSL_ERROR_* that is not a result.
ssize_t Fail(SSL* ssl, int rc) {
  const int e = errno;
  switch (SSL_get_error(ssl, rc)) {
    case SSL_ERROR_ZERO_RETURN: return 0;
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE: errno = EAGAIN; return -1;
    case SSL_ERROR_SYSCALL:
      if (e == 0) return 0;
      errno = e;
      return -1;
    default:
      ERR_clear_error();
      errno = EPROTO;
      return -1;
  }
}

}  // namespace

MockTls::MockTls(const std::string& cert_file, const std::string& key_file, const std::string& client_ca_file) {
  ctx_ = SSL_CTX_new(TLS_server_method());
  if (ctx_ == nullptr) throw std::runtime_error("tls: cannot create a context");
  auto fail = [this](const std::string& what) {
    ERR_clear_error();
    SSL_CTX_free(ctx_);
    ctx_ = nullptr;
    throw std::runtime_error(what);
  };
  SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
  SSL_CTX_set_options(ctx_, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_mode(ctx_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // Stateless tickets (the default) let clients resume; the server cache is off.
  SSL_CTX_set_session_cache_mode(ctx_, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_alpn_select_cb(ctx_, SelectAlpn, nullptr);
  if (SSL_CTX_use_certificate_chain_file(ctx_, cert_file.c_str()) != 1)
    fail("--tls-cert: cannot load a PEM certificate from " + cert_file);
  if (SSL_CTX_use_PrivateKey_file(ctx_, key_file.c_str(), SSL_FILETYPE_PEM) != 1)
    fail("--tls-key: cannot load a PEM private key from " + key_file);
  if (SSL_CTX_check_private_key(ctx_) != 1) fail("--tls-key: the key does not match --tls-cert");
  if (!client_ca_file.empty()) {
    if (SSL_CTX_load_verify_locations(ctx_, client_ca_file.c_str(), nullptr) != 1)
      fail("--tls-client-ca: cannot load CA certificates from " + client_ca_file);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    // A server that verifies peers must name its session context, or OpenSSL refuses every resumed
    // session with an internal_error alert (the client resumes on each new connection).
    static const unsigned char kSessionContext[] = "servebench-mock";
    SSL_CTX_set_session_id_context(ctx_, kSessionContext, sizeof(kSessionContext) - 1);
  }
}

MockTls::~MockTls() {
  if (ctx_ != nullptr) SSL_CTX_free(ctx_);
}

SSL* MockTls::Accept(int fd) const {
  SSL* ssl = SSL_new(ctx_);
  if (ssl == nullptr) return nullptr;
  SSL_set_fd(ssl, fd);
  SSL_set_accept_state(ssl);
  return ssl;
}

int MockTlsHandshake(SSL* ssl) {
  ERR_clear_error();
  const int rc = SSL_do_handshake(ssl);
  if (rc == 1) return 1;
  switch (SSL_get_error(ssl, rc)) {
    case SSL_ERROR_WANT_READ: return 0;
    case SSL_ERROR_WANT_WRITE: return 2;
    default: ERR_clear_error(); return -1;
  }
}

ssize_t MockTlsRecv(SSL* ssl, char* buf, size_t n) {
  ERR_clear_error();
  errno = 0;
  const int rc = SSL_read(ssl, buf, static_cast<int>(std::min<size_t>(n, 1 << 30)));
  return rc > 0 ? rc : Fail(ssl, rc);
}

ssize_t MockTlsSend(SSL* ssl, const char* buf, size_t n) {
  ERR_clear_error();
  errno = 0;
  const int rc = SSL_write(ssl, buf, static_cast<int>(std::min<size_t>(n, 1 << 30)));
  return rc > 0 ? rc : Fail(ssl, rc);
}

void MockTlsFree(SSL* ssl) {
  SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
  SSL_free(ssl);
}

}  // namespace servebench
