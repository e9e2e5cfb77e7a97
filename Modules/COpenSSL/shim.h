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

// Certificate inspection (bird-inspect doctor): stacks are macros over OPENSSL_sk_*, and the
// name-printing flags are composite macros.
static inline int bird_GENERAL_NAMES_count(GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
static inline GENERAL_NAME *bird_GENERAL_NAMES_value(GENERAL_NAMES *names, int i) {
    return sk_GENERAL_NAME_value(names, i);
}
static inline void bird_GENERAL_NAMES_free(GENERAL_NAMES *names) { GENERAL_NAMES_free(names); }
static inline int bird_X509_stack_count(STACK_OF(X509) *chain) { return sk_X509_num(chain); }
static inline X509 *bird_X509_stack_value(STACK_OF(X509) *chain, int i) { return sk_X509_value(chain, i); }
/// RFC 2253 order (most specific first), UTF-8 kept as is.
static inline unsigned long bird_XN_FLAG_RFC2253_UTF8(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }
#endif
