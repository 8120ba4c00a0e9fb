/*
** png.c -- a self-contained PNG encoder for `astar render`: palette or RGB
** images, row filters, and a zlib stream compressed with our own deflate
** (LZ77 over a 32 KiB window with hash chains, fixed Huffman codes; stored
** blocks when they come out smaller). CRC-32 and Adler-32 are computed here
** too, so the tool needs no image library.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* ---- growable byte buffer with an LSB-first bit writer (deflate order) ---- */

typedef struct bytes {
  uint8_t *data;
  size_t len, cap;
  bool failed; /* out of memory: later writes are dropped */
  uint64_t bits;
  int nbits;
} bytes;

static void bytes_reserve(bytes *b, size_t extra) {
  if (b->failed || b->len + extra <= b->cap) return;
  size_t cap = b->cap ? b->cap : 1 << 16;
  while (cap < b->len + extra) cap *= 2;
  uint8_t *p = realloc(b->data, cap);
  if (!p) {
    b->failed = true;
    return;
  }
  b->data = p;
  b->cap = cap;
}

static void bytes_put(bytes *b, const void *src, size_t n) {
  bytes_reserve(b, n);
  if (b->failed) return;
  memcpy(b->data + b->len, src, n);
  b->len += n;
}

static void bytes_byte(bytes *b, uint8_t v) {
  bytes_put(b, &v, 1);
}

static void bits_put(bytes *b, uint32_t value, int n) {
  b->bits |= (uint64_t)value << b->nbits;
  b->nbits += n;
  if (b->nbits >= 32) {
    uint8_t four[4] = {(uint8_t)b->bits, (uint8_t)(b->bits >> 8), (uint8_t)(b->bits >> 16),
                       (uint8_t)(b->bits >> 24)};
    bytes_put(b, four, 4);
    b->bits >>= 32;
    b->nbits -= 32;
  }
}

/* Pad with zero bits up to a byte boundary and flush the accumulator. */
static void bits_flush(bytes *b) {
  while (b->nbits > 0) {
    bytes_byte(b, (uint8_t)b->bits);
    b->bits >>= 8;
    b->nbits -= 8;
  }
  b->bits = 0;
  b->nbits = 0;
}

/* ---- checksums ------------------------------------------------------------ */

typedef struct crc_table {
  uint32_t t[256];
} crc_table;

static void crc_init(crc_table *ct) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    ct->t[n] = c;
  }
}

/* Running CRC-32 (start with 0). */
static uint32_t crc_update(const crc_table *ct, uint32_t crc, const uint8_t *p, size_t n) {
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = ct->t[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

static uint32_t adler32(const uint8_t *p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n > 0) {
    /* 5552 bytes is the most that cannot overflow 32 bits before the modulo. */
    size_t k = n < 5552 ? n : 5552;
    n -= k;
    while (k--) {
      a += *p++;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

/* ---- deflate ----------------------------------------------------------------- */

#define WINDOW 32768
#define MIN_MATCH 3
#define MAX_MATCH 258
#define HASH_BITS 15
#define MAX_CHAIN 48

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* The fixed Huffman code of RFC 1951 section 3.2.6, bit-reversed so that it
** can go through the LSB-first bit writer. */
typedef struct fixed_code {
  uint16_t code[288];
  uint8_t len[288];
} fixed_code;

static uint32_t reverse_bits(uint32_t v, int n) {
  uint32_t r = 0;
  for (int i = 0; i < n; i++, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

static void fixed_init(fixed_code *fc) {
  for (int s = 0; s < 288; s++) {
    uint32_t code;
    int len;
    if (s < 144)
      code = 0x30 + (uint32_t)s, len = 8;
    else if (s < 256)
      code = 0x190 + (uint32_t)(s - 144), len = 9;
    else if (s < 280)
      code = (uint32_t)(s - 256), len = 7;
    else
      code = 0xC0 + (uint32_t)(s - 280), len = 8;
    fc->code[s] = (uint16_t)reverse_bits(code, len);
    fc->len[s] = (uint8_t)len;
  }
}

static void put_symbol(bytes *b, const fixed_code *fc, int s) {
  bits_put(b, fc->code[s], fc->len[s]);
}

static void put_match(bytes *b, const fixed_code *fc, int length, int dist) {
  int li = 28;
  while (len_base[li] > length) li--;
  put_symbol(b, fc, 257 + li);
  if (len_extra[li]) bits_put(b, (uint32_t)(length - len_base[li]), len_extra[li]);
  int di = 29;
  while (dist_base[di] > dist) di--;
  /* Distance codes are 5-bit fixed codes, also sent most significant bit first. */
  bits_put(b, reverse_bits((uint32_t)di, 5), 5);
  if (dist_extra[di]) bits_put(b, (uint32_t)(dist - dist_base[di]), dist_extra[di]);
}

static uint32_t hash3(const uint8_t *p) {
  uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* How many leading bytes a and b share, at most max. */
static size_t match_length(const uint8_t *a, const uint8_t *b, size_t max) {
  size_t l = 0;
  while (l < max && a[l] == b[l]) l++;
  return l;
}

/* One final fixed-Huffman block holding all of `src`. Greedy matching: the
** longest match among the last MAX_CHAIN positions with the same 3-byte hash. */
static bool deflate_fixed(bytes *out, const uint8_t *src, size_t n) {
  int32_t *head = malloc(sizeof(int32_t) << HASH_BITS);
  int32_t *prev = malloc(sizeof(int32_t) * WINDOW);
  if (!head || !prev) {
    free(head);
    free(prev);
    return false;
  }
  for (size_t i = 0; i < (size_t)1 << HASH_BITS; i++) head[i] = -1;
  fixed_code fc;
  fixed_init(&fc);
  bits_put(out, 1, 1); /* BFINAL */
  bits_put(out, 1, 2); /* BTYPE 01: fixed Huffman */
  /* head[] and prev[] hold positions (int32_t: inputs over 2 GiB go stored). */
  size_t i = 0;
  while (i < n) {
    int best_len = 0, best_dist = 0;
    if (i + MIN_MATCH <= n) {
      uint32_t h = hash3(src + i);
      size_t max_len = n - i < MAX_MATCH ? n - i : MAX_MATCH;
      int32_t cand = head[h];
      for (int chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++) {
        size_t c = (size_t)cand;
        if (i - c > WINDOW) break;
        if (src[c + (size_t)best_len] == src[i + (size_t)best_len]) {
          const size_t l = match_length(src + c, src + i, max_len);
          if ((int)l > best_len) {
            best_len = (int)l;
            best_dist = (int)(i - c);
            if (l == max_len) break;
          }
        }
        int32_t next = prev[c % WINDOW];
        if (next >= cand) break; /* stale entry from an older window */
        cand = next;
      }
    }
    size_t step = best_len >= MIN_MATCH ? (size_t)best_len : 1;
    if (best_len >= MIN_MATCH)
      put_match(out, &fc, best_len, best_dist);
    else
      put_symbol(out, &fc, src[i]);
    /* Index every position covered, so that later matches can start anywhere. */
    for (size_t k = 0; k < step; k++, i++) {
      if (i + MIN_MATCH <= n) {
        uint32_t h = hash3(src + i);
        prev[i % WINDOW] = head[h];
        head[h] = (int32_t)i;
      }
    }
  }
  put_symbol(out, &fc, 256); /* end of block */
  bits_flush(out);
  free(head);
  free(prev);
  return !out->failed;
}

/* Stored (uncompressed) blocks of at most 65535 bytes. */
static void deflate_stored(bytes *out, const uint8_t *src, size_t n) {
  size_t i = 0;
  do {
    size_t k = n - i < 65535 ? n - i : 65535;
    bits_put(out, i + k == n, 1); /* BFINAL */
    bits_put(out, 0, 2);          /* BTYPE 00: stored */
    bits_flush(out);
    uint8_t hdr[4] = {(uint8_t)k, (uint8_t)(k >> 8), (uint8_t)~k, (uint8_t)(~k >> 8)};
    bytes_put(out, hdr, 4);
    bytes_put(out, src + i, k);
    i += k;
  } while (i < n);
}

/* A zlib stream (RFC 1950) around deflate data. */
static bool zlib_compress(bytes *out, const uint8_t *src, size_t n, bool stored) {
  bytes_byte(out, 0x78); /* deflate, 32 KiB window */
  bytes_byte(out, 0x01); /* no dictionary; (0x78 << 8 | 0x01) % 31 == 0 */
  size_t start = out->len;
  /* An LZ77 pass cannot lose much, but stored is the guaranteed bound. */
  if (stored || n > (size_t)INT32_MAX || !deflate_fixed(out, src, n) ||
      out->len - start > n + n / 65535 * 5 + 5) {
    out->len = start;
    out->failed = false;
    out->bits = 0;
    out->nbits = 0;
    deflate_stored(out, src, n);
  }
  uint32_t a = adler32(src, n);
  uint8_t tail[4] = {(uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8), (uint8_t)a};
  bytes_put(out, tail, 4);
  return !out->failed;
}

/* ---- PNG ---------------------------------------------------------------------- */

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static bool write_chunk(FILE *out, const crc_table *ct, const char type[4], const uint8_t *data,
                        size_t n, size_t *bytes_written) {
  uint8_t hdr[8];
  put_be32(hdr, (uint32_t)n);
  memcpy(hdr + 4, type, 4);
  uint32_t crc = crc_update(ct, 0, hdr + 4, 4);
  if (n) crc = crc_update(ct, crc, data, n);
  uint8_t tail[4];
  put_be32(tail, crc);
  if (fwrite(hdr, 1, 8, out) != 8 || (n && fwrite(data, 1, n, out) != n) ||
      fwrite(tail, 1, 4, out) != 4)
    return false;
  *bytes_written += 12 + n;
  return true;
}

/* Up to 256 colours: their palette and, per pixel, the index. */
typedef struct palette {
  uint32_t slot_color[1024]; /* open addressing, 0xFFFFFFFF = empty */
  uint8_t slot_index[1024];
  uint32_t color[256];
  int count;
} palette;

/* Index of `c`, adding it; -1 once there are more than 256 colours. */
static int palette_index(palette *pal, uint32_t c) {
  uint32_t h = (c * 2654435761u) >> 22;
  for (;; h = (h + 1) & 1023) {
    if (pal->slot_color[h] == c) return pal->slot_index[h];
    if (pal->slot_color[h] == 0xFFFFFFFFu) {
      if (pal->count == 256) return -1;
      pal->slot_color[h] = c;
      pal->slot_index[h] = (uint8_t)pal->count;
      pal->color[pal->count] = c;
      return pal->count++;
    }
  }
}

static int paeth(int a, int b, int c) {
  int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/* Filter one truecolour row, choosing the filter with the smallest sum of
** absolute (signed) outputs -- the usual heuristic. */
static void filter_row(uint8_t *dst, const uint8_t *row, const uint8_t *above, size_t n,
                       uint8_t *scratch) {
  long best_sum = -1;
  for (int f = 0; f < 5; f++) {
    long sum = 0;
    for (size_t i = 0; i < n; i++) {
      int a = i >= 3 ? row[i - 3] : 0, b = above ? above[i] : 0,
          c = i >= 3 && above ? above[i - 3] : 0;
      int pred = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : paeth(a, b, c);
      uint8_t v = (uint8_t)(row[i] - pred);
      scratch[i] = v;
      sum += v < 128 ? v : 256 - v;
    }
    if (best_sum < 0 || sum < best_sum) {
      best_sum = sum;
      dst[0] = (uint8_t)f;
      memcpy(dst + 1, scratch, n);
    }
  }
}

bool render_png_write(FILE *out, int width, int height, const uint8_t *rgb, bool stored,
                      size_t *bytes_out) {
  size_t w = (size_t)width, h = (size_t)height, npix = w * h;
  *bytes_out = 0;
  palette *pal = malloc(sizeof *pal);
  uint8_t *index = malloc(npix ? npix : 1);
  if (!pal || !index) {
    free(pal);
    free(index);
    errno = ENOMEM;
    return false;
  }
  memset(pal->slot_color, 0xFF, sizeof pal->slot_color);
  pal->count = 0;
  bool use_palette = true;
  for (size_t i = 0; i < npix && use_palette; i++) {
    const uint8_t *p = rgb + 3 * i;
    int k = palette_index(pal, (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]);
    if (k < 0)
      use_palette = false;
    else
      index[i] = (uint8_t)k;
  }

  /* The filtered scanlines. Palette images use filter 0 and the smallest bit
  ** depth that holds their indices; truecolour rows are filtered adaptively. */
  int depth = 8;
  if (use_palette) depth = pal->count <= 2 ? 1 : pal->count <= 4 ? 2 : pal->count <= 16 ? 4 : 8;
  size_t stride = use_palette ? (w * (size_t)depth + 7) / 8 : 3 * w;
  size_t raw_len = h * (1 + stride);
  uint8_t *raw = calloc(raw_len ? raw_len : 1, 1);
  uint8_t *scratch = malloc(stride ? stride : 1);
  bytes z = {0};
  bool ok = raw && scratch;
  if (ok) {
    for (size_t y = 0; y < h; y++) {
      uint8_t *dst = raw + y * (1 + stride);
      if (use_palette) {
        dst[0] = 0;
        const uint8_t *src = index + y * w;
        const size_t per_byte = (size_t)(8 / depth);
        for (size_t x = 0; x < w; x++) {
          const int shift = 8 - depth * (int)(x % per_byte + 1);
          /* index[] holds w * h entries, all set since use_palette held; the
          ** analyser does not tie npix to w * h.
          ** NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
          dst[1 + x / per_byte] |= (uint8_t)(src[x] << shift);
        }
      } else {
        filter_row(dst, rgb + y * 3 * w, y ? rgb + (y - 1) * 3 * w : NULL, stride, scratch);
      }
    }
    ok = zlib_compress(&z, raw, raw_len, stored);
  }
  free(raw);
  free(scratch);
  free(index);
  if (!ok) {
    free(pal);
    free(z.data);
    errno = ENOMEM;
    return false;
  }

  crc_table ct;
  crc_init(&ct);
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  uint8_t ihdr[13];
  put_be32(ihdr, (uint32_t)width);
  put_be32(ihdr + 4, (uint32_t)height);
  ihdr[8] = (uint8_t)depth;
  ihdr[9] = use_palette ? 3 : 2; /* colour type: palette or RGB */
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  size_t written = 0;
  ok = fwrite(signature, 1, 8, out) == 8;
  if (ok) written = 8;
  ok = ok && write_chunk(out, &ct, "IHDR", ihdr, 13, &written);
  if (ok && use_palette) {
    uint8_t plte[768];
    for (size_t i = 0; i < (size_t)pal->count; i++) {
      plte[3 * i] = (uint8_t)(pal->color[i] >> 16);
      plte[3 * i + 1] = (uint8_t)(pal->color[i] >> 8);
      plte[3 * i + 2] = (uint8_t)pal->color[i];
    }
    ok = write_chunk(out, &ct, "PLTE", plte, 3 * (size_t)pal->count, &written);
  }
  /* IDAT chunks of at most 1 MiB: any split is valid; decoders like it small. */
  for (size_t off = 0; ok && off < z.len; off += 1 << 20) {
    size_t k = z.len - off < (1 << 20) ? z.len - off : (1 << 20);
    ok = write_chunk(out, &ct, "IDAT", z.data + off, k, &written);
  }
  ok = ok && write_chunk(out, &ct, "IEND", NULL, 0, &written);
  free(pal);
  free(z.data);
  if (!ok && errno == 0) errno = EIO;
  *bytes_out = written;
  return ok;
}
