"""From an occupancy grid to a path: a ROS map, an image, a mask, in (row, col).

Run: PYTHONPATH=build/python/lib /usr/bin/python3 python/examples/occupancy_grid.py
"""
from __future__ import annotations

import warnings

import numpy as np

import libastar

# A ROS nav_msgs/OccupancyGrid: int8, 0..100 the chance of a wall in percent,
# -1 unknown -- np.array(msg.data, dtype=np.int8).reshape(msg.info.height,
# msg.info.width). Here a room with a wall, a door in it, and unknown cells.
occupancy = np.zeros((40, 60), dtype=np.int8)
occupancy[:, 30] = 100                # a wall down the middle...
occupancy[18:22, 30] = 0              # ...with a door
occupancy[5:10, 40:50] = -1           # not seen yet
occupancy[25:35, 10:20] = 70          # probably an obstacle (>= 65: blocked)

# Cells >= threshold (65, map_server's occupied_thresh) are walls; unknown
# cells are walls too unless unknown="free". order="rc": points and paths are
# (row, col), as NumPy indexes the array.
grid = libastar.Grid.from_occupancy(occupancy, threshold=65, unknown="blocked", order="rc")
path = grid.find_path((2, 2), (38, 57))
print(path)                                    # <Path OK ... cells (row, col), ...>
rows, cols = path.cells[:, 0], path.cells[:, 1]
assert (occupancy[rows, cols] < 65).all() and (occupancy[rows, cols] >= 0).all()
print("through the door at row", int(rows[cols == 30][0]), "- cost", round(path.cost, 2))

# The same map in (x, y), per call: the path is the same, its columns swapped.
xy = grid.find_path((2, 2), (57, 38), order="xy")
assert np.array_equal(xy.cells, path.xy) and np.array_equal(xy.rc, path.cells)

# A point can say which order it is in, and is then never misread.
assert grid.find_path(libastar.XY(2, 2), libastar.XY(57, 38)).cost == path.cost

# Paint the path into the map (an image: white free, black walls).
image = np.where(occupancy >= 65, 0, 255).astype(np.uint8)
image[rows, cols] = 128

# A picture of the map reads as map_server reads it: dark pixels
# (grey < 90) are walls, colour or grey, uint8 or floats in [0, 1].
from_image = libastar.Grid.from_image(image, order="rc")
print("from the image:", from_image.count_passable(), "free cells")

# A boolean mask: True = free (or free=False for an obstacle mask).
obstacles = occupancy >= 65
mask_grid = libastar.Grid.from_mask(obstacles, free=False, order="rc")
assert mask_grid.find_path((2, 2), (38, 57)).cost <= path.cost   # unknown cells open here

# from_numpy reads numbers as costs with 0 as a wall: given the occupancy
# grid it would invert it -- it warns and names the right constructor.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    libastar.Grid.from_numpy(np.where(occupancy < 0, 100, occupancy).astype(np.int8))
print("from_numpy:", caught[0].category.__name__, "->",
      "from_occupancy" in str(caught[0].message))
