/*
** finder/methods.c -- the method table: one row per astar_method, each
** defined in its method's file (m_*.c). Adding a method is its file and
** its line here (docs/architecture.md).
*/
#include "finder/finder.h"

static const astar__method *const table[ASTAR_METHOD_COUNT] = {
    [ASTAR_METHOD_ASTAR] = &astar__m_astar,
    [ASTAR_METHOD_DIJKSTRA] = &astar__m_dijkstra,
    [ASTAR_METHOD_GREEDY] = &astar__m_greedy,
    [ASTAR_METHOD_BIDIRECTIONAL] = &astar__m_bidirectional,
    [ASTAR_METHOD_IDA] = &astar__m_ida,
    [ASTAR_METHOD_BEAM] = &astar__m_beam,
    [ASTAR_METHOD_DYNAMIC] = &astar__m_dynamic,
    [ASTAR_METHOD_BANDWIDTH] = &astar__m_bandwidth,
    [ASTAR_METHOD_FRONT_TO_FRONT] = &astar__m_f2f,
    [ASTAR_METHOD_RETARGETING] = &astar__m_retargeting,
    [ASTAR_METHOD_JPS] = &astar__m_jps,
    [ASTAR_METHOD_JPS_PLUS] = &astar__m_jps_plus,
    [ASTAR_METHOD_CPD] = &astar__m_cpd,
    [ASTAR_METHOD_HPA] = &astar__m_hpa,
    [ASTAR_METHOD_THETA] = &astar__m_theta,
    [ASTAR_METHOD_LAZY_THETA] = &astar__m_lazy_theta,
    [ASTAR_METHOD_ANYA] = &astar__m_anya,
};

const astar__method *astar__method_row(astar_method m) {
  return (unsigned)m < ASTAR_METHOD_COUNT ? table[m] : NULL;
}
