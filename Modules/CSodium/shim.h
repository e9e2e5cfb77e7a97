#ifndef BIRD_CSODIUM_SHIM_H
#define BIRD_CSODIUM_SHIM_H
// libsodium for Swift (end-to-end encrypted channels: XSalsa20-Poly1305 secretbox, SHA-256,
// base64, random nonces). Debian bookworm ships 1.0.18 (libsodium-dev).
#include <sodium.h>
#endif
