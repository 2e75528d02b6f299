#include "engine/engine_tls.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace servebench {

namespace {

// ALPN: the engine speaks HTTP/1.1 only.
const unsigned char kAlpn[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};

std::string LastSslError() {
  const unsigned long e = ERR_peek_last_error();
  ERR_clear_error();
  if (e == 0) return "unknown error";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  // "error:0A000086:SSL routines::certificate verify failed": the words after the last colon.
  const char* colon = std::strrchr(buf, ':');
  return colon != nullptr && colon[1] != '\0' ? std::string(colon + 1) : std::string(buf);
}

// The plain reason for a verification result (what the issue asks records to name).
const char* VerifyReason(long v) {
  switch (v) {
    case X509_V_ERR_CERT_HAS_EXPIRED: return "expired";
    case X509_V_ERR_CERT_NOT_YET_VALID: return "not yet valid";
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: return "hostname mismatch";
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN: return "unknown CA";
    case X509_V_ERR_CERT_REVOKED: return "revoked";
    default: return "verification failed";
  }
}

// The read BIO's callback arg says whether OpenSSL's last recv() on the socket came back short (it
// emptied the receive queue): a tag, so nothing is allocated or freed per connection.
char kDrained = 0;

long OnSocketBio(BIO* bio, int oper, const char*, size_t len, int, long, int ret, size_t* processed) {
  if (oper == (BIO_CB_READ | BIO_CB_RETURN)) {
    const bool drained = ret <= 0 || processed == nullptr || *processed < len;
    BIO_set_callback_arg(bio, drained ? &kDrained : nullptr);
  }
  return ret;
}

}  // namespace

TlsClient::TlsClient(const TlsOptions& options) : options_(options) {
  ctx_ = SSL_CTX_new(TLS_client_method());
  if (ctx_ == nullptr) throw std::runtime_error("tls: cannot create a context: " + LastSslError());
  SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
  // Servers that close without close_notify (most HTTP servers) end the stream as a plain EOF.
  SSL_CTX_set_options(ctx_, SSL_OP_IGNORE_UNEXPECTED_EOF);
  // Writes resume from where a partial one stopped; the buffer is the request's own.
  SSL_CTX_set_mode(ctx_, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_CTX_set_alpn_protos(ctx_, kAlpn, sizeof kAlpn);
  SSL_CTX_set_session_cache_mode(ctx_, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(ctx_, &TlsClient::OnNewSession);
  SSL_CTX_set_ex_data(ctx_, 0, this);
  auto fail = [this](const std::string& what) {
    ERR_clear_error();
    SSL_CTX_free(ctx_);
    ctx_ = nullptr;
    throw std::runtime_error(what);
  };
  if (options_.verify) {
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_default_verify_paths(ctx_);
    ERR_clear_error();  // a missing system store is not an error by itself
    if (!options_.ca_file.empty() && SSL_CTX_load_verify_locations(ctx_, options_.ca_file.c_str(), nullptr) != 1)
      fail("--ca-cert: cannot load CA certificates from " + options_.ca_file);
    if (!options_.extra_ca_file.empty() &&
        SSL_CTX_load_verify_locations(ctx_, options_.extra_ca_file.c_str(), nullptr) != 1)
      fail("NODE_EXTRA_CA_CERTS: cannot load CA certificates from " + options_.extra_ca_file);
    // The system bundle is best effort, as SSL_CTX_set_default_verify_paths is.
    if (!options_.system_ca_file.empty()) SSL_CTX_load_verify_locations(ctx_, options_.system_ca_file.c_str(), nullptr);
    ERR_clear_error();
  } else {
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_NONE, nullptr);
  }
  if (!options_.cert_file.empty() && SSL_CTX_use_certificate_chain_file(ctx_, options_.cert_file.c_str()) != 1)
    fail("--client-cert: cannot load a PEM certificate from " + options_.cert_file);
  // The key's contents never reach a message: only the flag and the path.
  if (!options_.key_file.empty()) {
    if (SSL_CTX_use_PrivateKey_file(ctx_, options_.key_file.c_str(), SSL_FILETYPE_PEM) != 1)
      fail("--client-key: cannot load a PEM private key from " + options_.key_file);
    if (SSL_CTX_check_private_key(ctx_) != 1) fail("--client-key: the key does not match --client-cert");
  }
  in6_addr a6;
  in_addr a4;
  ip_ = inet_pton(AF_INET, options_.servername.c_str(), &a4) == 1 ||
        inet_pton(AF_INET6, options_.servername.c_str(), &a6) == 1;
}

TlsClient::~TlsClient() {
  if (session_ != nullptr) SSL_SESSION_free(session_);
  if (ctx_ != nullptr) SSL_CTX_free(ctx_);
}

int TlsClient::OnNewSession(SSL* ssl, SSL_SESSION* session) {
  auto* self = static_cast<TlsClient*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), 0));
  if (self == nullptr) return 0;
  std::lock_guard<std::mutex> lock(self->mu_);
  if (self->session_ != nullptr) SSL_SESSION_free(self->session_);
  self->session_ = session;
  return 1;  // we keep the reference
}

SSL* TlsClient::NewSsl(int fd) {
  SSL* ssl = SSL_new(ctx_);
  if (ssl == nullptr) return nullptr;
  SSL_set_fd(ssl, fd);
  SSL_set_connect_state(ssl);
  // Read-ahead: one recv() takes whatever the socket holds into OpenSSL's record buffer (one
  // record's worth, ~16 KiB, allocated either way) instead of a 5-byte header and then the body, per
  // record; the callback tells TlsReadDrained whether that recv() emptied the socket.
  SSL_set_read_ahead(ssl, 1);
  BIO_set_callback_ex(SSL_get_rbio(ssl), &OnSocketBio);
  const char* name = options_.servername.c_str();
  if (!ip_ && !options_.servername.empty()) SSL_set_tlsext_host_name(ssl, name);
  if (options_.verify && !options_.servername.empty()) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    if (ip_) {
      X509_VERIFY_PARAM_set1_ip_asc(param, name);
    } else {
      X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
      X509_VERIFY_PARAM_set1_host(param, name, 0);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (session_ != nullptr) SSL_set_session(ssl, session_);
  return ssl;
}

std::string TlsClient::Error(SSL* ssl, int ret, int ssl_error, int saved_errno) {
  const long v = ssl != nullptr ? SSL_get_verify_result(ssl) : X509_V_OK;
  if (v != X509_V_OK) {
    ERR_clear_error();
    return std::string("tls: ") + VerifyReason(v) + " (" + X509_verify_cert_error_string(v) + ")";
  }
  if (ssl_error == SSL_ERROR_SYSCALL) {
    ERR_clear_error();
    if (ret == 0 || saved_errno == 0) return "tls: the server closed the connection during the handshake";
    return std::string("tls: ") + std::strerror(saved_errno);
  }
  return "tls: " + LastSslError();
}

ssize_t TlsReadSome(SSL* ssl, char* buf, size_t cap, int* err, std::string* tls_error) {
  ERR_clear_error();
  errno = 0;
  const int n = SSL_read(ssl, buf, static_cast<int>(std::min<size_t>(cap, 1 << 30)));
  if (n > 0) return n;
  const int e = errno;
  switch (SSL_get_error(ssl, n)) {
    case SSL_ERROR_ZERO_RETURN: return 0;
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE: *err = EAGAIN; return -1;
    case SSL_ERROR_SYSCALL:
      if (e == 0) return 0;
      *err = e;
      return -1;
    default: *tls_error = TlsClient::Error(nullptr, n, SSL_ERROR_SSL, e); return -2;
  }
}

bool TlsReadDrained(SSL* ssl) {
  if (SSL_has_pending(ssl) == 1) return false;
  BIO* bio = SSL_get_rbio(ssl);
  return bio != nullptr && BIO_get_callback_arg(bio) == &kDrained;
}

}  // namespace servebench
