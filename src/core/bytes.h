/*
** core/bytes.h -- the words of the library's portable byte formats (JPS+,
** landmark and HPA* files, path encodings): little-endian 32- and 64-bit
** integers, read and written the same on every host, and the word checksum
** the files carry (one multiply and one xor-shift per 64-bit word, so that
** every input bit reaches every output bit within a few words).
*/
#ifndef ASTAR_CORE_BYTES_H
#define ASTAR_CORE_BYTES_H

#include "core/internal.h"

#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASTAR__LITTLE_ENDIAN 1
#else
#define ASTAR__LITTLE_ENDIAN 0
#endif

ASTAR__INLINE uint32_t astar__get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

ASTAR__INLINE uint64_t astar__get_le64(const uint8_t *p) {
  uint64_t v = 0;
  if (ASTAR__LITTLE_ENDIAN) {
    memcpy(&v, p, sizeof v);
    return v;
  }
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

ASTAR__INLINE void astar__put_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

ASTAR__INLINE void astar__put_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A double as its IEEE-754 bits (the formats store doubles as 64-bit
** little-endian words), and back. */
ASTAR__INLINE uint64_t astar__f64_bits(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

ASTAR__INLINE double astar__bits_f64(uint64_t u) {
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* The checksum: start from ASTAR__HASH_INIT, fold in one word at a time. */
#define ASTAR__HASH_INIT UINT64_C(0x243f6a8885a308d3)
ASTAR__INLINE uint64_t astar__hash_word(uint64_t h, uint64_t w) {
  h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
  return h ^ (h >> 29);
}

#endif /* ASTAR_CORE_BYTES_H */
