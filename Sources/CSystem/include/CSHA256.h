#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has the SHA extensions (x86 SHA-NI with SSSE3 and SSE4.1).
int csha256_hardware_available(void);

/// Runs the SHA-256 compression function over `blocks` 64-byte blocks at `data`, updating
/// `state` (H0…H7) in place, with the SHA extensions. Call only when available.
void csha256_hardware_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
