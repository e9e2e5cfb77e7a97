#ifndef BIRD_COPENSSL_SHIM_H
#define BIRD_COPENSSL_SHIM_H
// OpenSSL for Swift: the headers we use, and inline wrappers for the macros Swift cannot import.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/md5.h>
#include <openssl/crypto.h>

static inline long bird_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline int bird_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long bird_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}
static inline void bird_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline int bird_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline long bird_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline long bird_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline int bird_SSL_VERIFY_PEER(void) { return SSL_VERIFY_PEER; }
static inline int bird_SSL_VERIFY_NONE(void) { return SSL_VERIFY_NONE; }
static inline int bird_SSL_FILETYPE_PEM(void) { return SSL_FILETYPE_PEM; }
#endif
