/*
** mapf_picture.c -- `astar mapf --svg / --png`: the map, each agent's path
** as a line in its own colour, its start (a square) and goal (a ring). The
** SVG also shows the agents walking: a disc per agent moved by SMIL
** <animateMotion>, one time step every 0.3 s, all agents on one clock, so
** that the picture shows no two discs ever meeting; after the makespan the
** agents rest on their goals for a moment and the walk starts again.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapf_tool.h"
#include "render.h"

#define STEP_SECONDS 0.3
#define HOLD_STEPS 4 /* steps the agents rest on their goals before the walk repeats */
#define C_FLOOR 0xF2F2F2u
#define C_WALL 0x2B2B2Bu

/* Agent i's colour: hues a golden angle apart, so that neighbours in
** number differ however many agents there are. */
static render_rgb agent_color(size_t i) {
  const double h = fmod((double)i * 137.50776405, 360.0) / 60.0, s = 0.7, v = 0.85;
  const double c = v * s, x = c * (1 - fabs(fmod(h, 2.0) - 1)), m = v - c;
  double r = 0, g = 0, b = 0;
  switch ((int)h) {
  case 0:
    r = c, g = x;
    break;
  case 1:
    r = x, g = c;
    break;
  case 2:
    g = c, b = x;
    break;
  case 3:
    g = x, b = c;
    break;
  case 4:
    r = x, b = c;
    break;
  default:
    r = c, b = x;
    break;
  }
  return (render_rgb)((unsigned)lround((r + m) * 255) << 16 | (unsigned)lround((g + m) * 255) << 8 |
                      (unsigned)lround((b + m) * 255));
}

/* Pixels a cell: the picture about 768 pixels on its longer side. */
static int cell_size(const astar_grid *g) {
  const int32_t side =
      astar_grid_width(g) > astar_grid_height(g) ? astar_grid_width(g) : astar_grid_height(g);
  int cell = 768 / (side > 0 ? side : 1);
  return cell < 2 ? 2 : cell > 24 ? 24 : cell;
}

static void draw_map(render_canvas *c, const astar_grid *g, int cell) {
  const int32_t w = astar_grid_width(g), h = astar_grid_height(g);
  c->ops->rect(c, 0, 0, w * cell, h * cell, C_FLOOR);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (!astar_grid_passable(g, x, y)) c->ops->rect(c, x * cell, y * cell, cell, cell, C_WALL);
}

/* The centre of cell p in pixels. */
static double px(int32_t v, int cell) {
  return (v + 0.5) * cell;
}

/* ---- PNG: the paths, no animation -------------------------------------------------------- */

static void draw_paths(render_canvas *c, const mapf_instance *inst, const astar_mapf_solution *sol,
                       int cell) {
  const double lw = cell / 4.0 < 1 ? 1 : cell / 4.0;
  for (size_t a = 0; a < inst->n; a++) {
    size_t len;
    const astar_point *p = astar_mapf_solution_path(sol, a, &len);
    const render_rgb col = agent_color(a);
    for (size_t t = 1; t < len; t++)
      if (p[t].x != p[t - 1].x || p[t].y != p[t - 1].y)
        render_line(c, px(p[t - 1].x, cell), px(p[t - 1].y, cell), px(p[t].x, cell),
                    px(p[t].y, cell), lw, col);
  }
  const int m = cell / 4 > 0 ? cell / 4 : 0;
  for (size_t a = 0; a < inst->n; a++) {
    const astar_point s = inst->starts[a], g = inst->goals[a];
    const render_rgb col = agent_color(a);
    c->ops->rect(c, s.x * cell + m, s.y * cell + m, cell - 2 * m, cell - 2 * m, col);
    c->ops->disc(c, px(g.x, cell), px(g.y, cell), cell * 0.42, col);
    if (cell >= 6) c->ops->disc(c, px(g.x, cell), px(g.y, cell), cell * 0.22, C_FLOOR);
  }
}

/* ---- SVG: the paths and the walk ---------------------------------------------------------- */

static void svg_num(FILE *f, double v) {
  if (v == floor(v))
    fprintf(f, "%.0f", v);
  else
    fprintf(f, "%.1f", v);
}

static void svg_paths(FILE *f, const mapf_instance *inst, const astar_mapf_solution *sol,
                      int cell) {
  const double lw = cell / 4.0 < 1 ? 1 : cell / 4.0;
  const uint32_t makespan = astar_mapf_solution_makespan(sol);
  fprintf(f, "<title>%zu agents, sum of costs %llu, makespan %u</title>\n", inst->n,
          (unsigned long long)astar_mapf_solution_sum_of_costs(sol), (unsigned)makespan);
  fputs("<g fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" opacity=\"0.6\" "
        "stroke-width=\"",
        f);
  svg_num(f, lw);
  fputs("\">\n", f);
  for (size_t a = 0; a < inst->n; a++) {
    size_t len;
    const astar_point *p = astar_mapf_solution_path(sol, a, &len);
    fprintf(f, "<polyline stroke=\"#%06x\" points=\"", (unsigned)agent_color(a));
    for (size_t t = 0; t < len; t++) {
      if (t > 0 && p[t].x == p[t - 1].x && p[t].y == p[t - 1].y) continue; /* a wait */
      if (t > 0) fputc(' ', f);
      svg_num(f, px(p[t].x, cell));
      fputc(',', f);
      svg_num(f, px(p[t].y, cell));
    }
    fputs("\"/>\n", f);
  }
  fputs("</g>\n", f);
  /* Starts: squares; goals: rings. */
  const double m = cell / 4.0;
  for (size_t a = 0; a < inst->n; a++) {
    const astar_point s = inst->starts[a], g = inst->goals[a];
    const unsigned col = (unsigned)agent_color(a);
    fputs("<rect x=\"", f);
    svg_num(f, s.x * cell + m);
    fputs("\" y=\"", f);
    svg_num(f, s.y * cell + m);
    fputs("\" width=\"", f);
    svg_num(f, cell - 2 * m);
    fputs("\" height=\"", f);
    svg_num(f, cell - 2 * m);
    fprintf(f, "\" fill=\"#%06x\"/><circle cx=\"", col);
    svg_num(f, px(g.x, cell));
    fputs("\" cy=\"", f);
    svg_num(f, px(g.y, cell));
    fputs("\" r=\"", f);
    svg_num(f, cell * 0.32);
    fprintf(f, "\" fill=\"none\" stroke=\"#%06x\" stroke-width=\"", col);
    svg_num(f, lw);
    fputs("\"/>\n", f);
  }
  /* The walk: every agent's cell at t = 0 .. makespan (its goal after it
  ** arrived), then HOLD_STEPS more at the goal; calcMode linear with one
  ** value a step gives every step the same time, waits included. */
  const uint32_t steps = makespan + HOLD_STEPS;
  fputs("<g stroke=\"#000\" stroke-width=\"", f);
  svg_num(f, cell >= 8 ? 1 : 0.5);
  fputs("\">\n", f);
  for (size_t a = 0; a < inst->n; a++) {
    size_t len;
    const astar_point *p = astar_mapf_solution_path(sol, a, &len);
    if (len == 0) continue;
    fprintf(f, "<circle r=\"");
    svg_num(f, cell * 0.4);
    fprintf(f, "\" fill=\"#%06x\"><animateMotion dur=\"", (unsigned)agent_color(a));
    svg_num(f, steps * STEP_SECONDS);
    fputs("s\" repeatCount=\"indefinite\" calcMode=\"linear\" values=\"", f);
    for (uint32_t t = 0; t <= steps; t++) {
      const astar_point q = p[t < len ? t : len - 1];
      if (t > 0) fputc(';', f);
      svg_num(f, px(q.x, cell));
      fputc(',', f);
      svg_num(f, px(q.y, cell));
    }
    fputs("\"/></circle>\n", f);
  }
  fputs("</g>\n", f);
}

bool mapf_picture(const char *path, bool svg, const mapf_instance *inst,
                  const astar_mapf_solution *sol) {
  const int cell = cell_size(inst->grid);
  const int width = astar_grid_width(inst->grid) * cell,
            height = astar_grid_height(inst->grid) * cell;
  cli_out out;
  if (!cli_out_open(&out, path)) return false;
  bool ok = true;
  errno = 0;
  if (svg) {
    render_svg s;
    render_svg_begin(&s, out.f, width, height, C_FLOOR, NULL);
    draw_map(&s.base, inst->grid, cell);
    render_svg_flush(&s);
    svg_paths(out.f, inst, sol, cell);
    render_svg_end(&s);
    ok = fflush(out.f) == 0 && !ferror(out.f);
  } else {
    render_raster r;
    if (!render_raster_init(&r, width, height, C_FLOOR)) {
      cli_out_abort(&out);
      cli_error("%s: cannot allocate a %d x %d picture", path, width, height);
      return false;
    }
    draw_map(&r.base, inst->grid, cell);
    draw_paths(&r.base, inst, sol, cell);
    size_t bytes;
    ok = render_png_write(out.f, width, height, r.rgb, false, &bytes);
    render_raster_free(&r);
  }
  if (!ok) out.err = errno ? errno : EIO; /* nothing of a failed picture is kept */
  return cli_out_close(&out);
}
