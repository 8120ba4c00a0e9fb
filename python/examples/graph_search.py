#!/usr/bin/env python3
"""graph_search.py -- the library's search engine on a graph described in
Python: the 8-puzzle, states as tuples, the Manhattan distance as heuristic.

    PYTHONPATH=build/python/lib python3 python/examples/graph_search.py
"""
import libastar

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def moves(state):
    """The boards one slide away, each at cost 1."""
    i = state.index(0)
    r, c = divmod(i, 3)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 3 and 0 <= c + dc < 3:
            j = (r + dr) * 3 + c + dc
            s = list(state)
            s[i], s[j] = s[j], s[i]
            yield tuple(s), 1.0


def manhattan(state, goal):
    total = 0
    for i, tile in enumerate(state):
        if tile:
            j = goal.index(tile)
            total += abs(i // 3 - j // 3) + abs(i % 3 - j % 3)
    return float(total)


start = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # one of the hardest: 31 moves
for algo, h in (("astar", manhattan), ("dijkstra", None)):
    p = libastar.find_graph_path(start, GOAL, moves, heuristic=h, consistent=True, algo=algo,
                                 max_degree=4)
    print(f"{algo:8}: {len(p.nodes) - 1} moves, {p.expanded:6} boards expanded, "
          f"{p.states:6} met")
for board in p.nodes[:3]:
    print("\n".join(" ".join(str(t or ".") for t in board[r:r + 3]) for r in (0, 3, 6)), "\n")
