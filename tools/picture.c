/*
** picture.c -- ASCII picture of a grid with a path, framed, with column and
** row numbers so that coordinates printed elsewhere can be found on it.
** Colours (ANSI) only when writing to a terminal and NO_COLOR is unset.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define ANSI_RESET "\033[0m"

bool cli_want_color(FILE *out) {
  const char *no = getenv("NO_COLOR");
  if (no && no[0]) return false;
  const char *term = getenv("TERM");
  if (term && strcmp(term, "dumb") == 0) return false;
  return isatty(fileno(out)) != 0;
}

/* Terrain cost as one character: '.' cost 1, '2'..'9' whole costs, ','
** cheaper than 1, '~' anything else. */
static char terrain_char(const astar_grid *g, int32_t x, int32_t y) {
  float t = astar_grid_terrain(g, x, y);
  if (t == 1.0f) return '.';
  if (t < 1.0f) return ',';
  if (t <= 9.0f && t == (float)(int)t) return (char)('0' + (int)t);
  return '~';
}

static const char *color_of(char c) {
  switch (c) {
  case '#':
    return "\033[90m"; /* walls: grey */
  case '*':
    return "\033[1;32m"; /* path: bold green */
  case 'o':
    return "\033[1;36m"; /* marks (waypoints): bold cyan */
  case 'S':
    return "\033[1;97;42m";
  case 'G':
    return "\033[1;97;41m";
  case '.':
    return "\033[2m"; /* open floor: dim */
  default:
    return "\033[33m"; /* terrain: yellow */
  }
}

static int digits(long v) {
  int n = 1;
  while (v >= 10) v /= 10, n++;
  return n;
}

static void draw_ruler(FILE *out, int32_t w, int margin) {
  /* Wide maps get labels at every tenth column ("0", "10", "20", ...) above
  ** the units digits. */
  if (w > 10) {
    fprintf(out, "%*s", margin + 1, "");
    for (int32_t x = 0; x < w; x += 10) {
      if (x + digits(x) > w) break;
      if (x > 0) fprintf(out, "%*s", 10 - digits(x - 10), "");
      fprintf(out, "%d", (int)x);
    }
    fputc('\n', out);
  }
  fprintf(out, "%*s", margin + 1, "");
  for (int32_t x = 0; x < w; x++) fputc('0' + x % 10, out);
  fputc('\n', out);
}

static void draw_border(FILE *out, int32_t w, int margin) {
  fprintf(out, "%*s+", margin, "");
  for (int32_t x = 0; x < w; x++) fputc('-', out);
  fputs("+\n", out);
}

void cli_draw(FILE *out, const cli_picture *pic) {
  const astar_grid *g = pic->grid;
  int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  unsigned char *on_path = calloc((size_t)w * (size_t)h, 1); /* 1 path, 2 mark */
  if (on_path && pic->path) {
    for (size_t i = 0; i < pic->path_len; i++) {
      astar_point p = pic->path[i];
      if (astar_grid_contains(g, p.x, p.y)) on_path[(size_t)p.y * (size_t)w + (size_t)p.x] = 1;
    }
  }
  if (on_path && pic->marks) {
    for (size_t i = 0; i < pic->nmarks; i++) {
      astar_point p = pic->marks[i];
      if (astar_grid_contains(g, p.x, p.y)) on_path[(size_t)p.y * (size_t)w + (size_t)p.x] = 2;
    }
  }
  int margin = pic->ruler ? digits(h - 1) + 1 : 0;
  if (pic->ruler) draw_ruler(out, w, margin);
  draw_border(out, w, margin);
  const char *last = NULL;
  for (int32_t y = 0; y < h; y++) {
    if (pic->ruler) fprintf(out, "%*d ", margin - 1, (int)y);
    fputc('|', out);
    for (int32_t x = 0; x < w; x++) {
      const unsigned char mark = on_path ? on_path[(size_t)y * (size_t)w + (size_t)x] : 0;
      char c;
      if (x == pic->start.x && y == pic->start.y)
        c = 'S';
      else if (x == pic->goal.x && y == pic->goal.y)
        c = 'G';
      else if (!astar_grid_passable(g, x, y))
        c = '#';
      else if (mark)
        c = mark == 2 ? 'o' : '*';
      else
        c = terrain_char(g, x, y);
      if (pic->color) {
        const char *col = color_of(c);
        if (col != last) {
          if (last) fputs(ANSI_RESET, out);
          fputs(col, out);
          last = col;
        }
      }
      fputc(c, out);
    }
    if (last) {
      fputs(ANSI_RESET, out);
      last = NULL;
    }
    fputs("|\n", out);
  }
  draw_border(out, w, margin);
  free(on_path);
}

void cli_draw_legend(FILE *out, const astar_grid *grid) {
  bool digit = false, below = false, other = false;
  if (astar_grid_has_terrain(grid)) {
    int32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
    for (int32_t y = 0; y < h; y++) {
      for (int32_t x = 0; x < w; x++) {
        char c = terrain_char(grid, x, y);
        digit |= c >= '2' && c <= '9';
        below |= c == ',';
        other |= c == '~';
      }
    }
  }
  fputs("legend: S start, G goal, * path, # blocked, . open", out);
  if (digit) fputs(", 2-9 terrain cost", out);
  if (below) fputs(", ',' terrain cost below 1", out);
  if (other) fputs(", ~ other terrain cost", out);
  fputc('\n', out);
}
