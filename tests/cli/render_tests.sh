#!/usr/bin/env bash
#
# render_tests.sh -- end-to-end checks of "seeing the search": `astar solve
# --trace` (JSON Lines, consistent with the printed statistics) and `astar
# render` (valid SVG and PNG of the right size; the cells' states in the
# picture match a replay of the trace; arrows point to the parents; --step,
# --frames; exit statuses). PNGs are decoded by a small Python checker
# (chunk CRCs, zlib stream, filters, palette) written below, independent of
# the libpng that writes them (tests/test_png.c checks the writer with
# libpng's reader).
# Usage: render_tests.sh PATH/TO/astar REPO_ROOT
# Prints one line per failed check and "N passed, M failed" at the end;
# exits non-zero if any check failed.

set -u

# shellcheck source=tests/cli/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_args "$@"
if [ ! -x "$ASTAR" ]; then
  echo "$0: $ASTAR is not an executable" >&2
  exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "$0: python3 is needed to check the outputs" >&2
  exit 2
fi

cli_tmp render

# check NAME PYTHON-SCRIPT ARGS...: a Python check; its stdout explains a failure.
check() {
  local name=$1 script=$2
  shift 2
  local msg
  if msg=$(python3 "$TMP/$script" "$@" 2>&1); then
    ok
  else
    failed=$((failed + 1))
    echo "FAIL: $name: $(echo "$msg" | tail -3 | tr '\n' '|')"
  fi
}

# ---- the Python helpers ----------------------------------------------------------

# pngcheck.py: decode a PNG with nothing but zlib (chunk CRCs, IHDR, PLTE,
# IDAT inflate, the five row filters, palette bit depths 1-8 or RGB).
cat >"$TMP/pngcheck.py" <<'EOF'
import struct, sys, zlib

def decode(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n', 'bad signature'
    pos, chunks = 8, []
    while pos < len(d):
        n, = struct.unpack('>I', d[pos:pos + 4])
        t, body = d[pos + 4:pos + 8], d[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(t + body) & 0xffffffff == crc, 'bad CRC in %r' % t
        chunks.append((t, body))
        pos += 12 + n
    assert pos == len(d), 'trailing bytes'
    assert chunks[0][0] == b'IHDR' and chunks[-1][0] == b'IEND', 'chunk order'
    w, h, depth, ctype, comp, filt, lace = struct.unpack('>IIBBBBB', chunks[0][1])
    assert ctype in (2, 3) and comp == 0 and filt == 0 and lace == 0, 'IHDR fields'
    assert depth == 8 or (ctype == 3 and depth in (1, 2, 4)), 'bit depth'
    z = b''.join(b for t, b in chunks if t == b'IDAT')
    raw = zlib.decompress(z)  # checks the Adler-32 too
    assert zlib.adler32(raw) & 0xffffffff == struct.unpack('>I', z[-4:])[0], 'Adler-32'
    pal = next((b for t, b in chunks if t == b'PLTE'), None)
    assert (ctype == 3) == (pal is not None), 'PLTE'
    bpp = 3 if ctype == 2 else 1
    stride = (w * depth * bpp + 7) // 8
    assert len(raw) == h * (1 + stride), 'image data length %d' % len(raw)
    rows, prev = [], bytearray(stride)
    for y in range(h):
        base = y * (1 + stride)
        f, line = raw[base], bytearray(raw[base + 1:base + 1 + stride])
        assert f <= 4, 'filter type %d' % f
        if f:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if f == 1: p = a
                elif f == 2: p = b
                elif f == 3: p = (a + b) // 2
                else:
                    q = a + b - c
                    pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)
                    p = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + p) & 255
        rows.append(line)
        prev = line
    def pixel(x, y):
        if ctype == 2:
            return '%02x%02x%02x' % tuple(rows[y][3 * x:3 * x + 3])
        per = 8 // depth
        k = (rows[y][x // per] >> (8 - depth * (x % per + 1))) & ((1 << depth) - 1)
        assert 3 * k + 3 <= len(pal), 'palette index'
        return '%02x%02x%02x' % tuple(pal[3 * k:3 * k + 3])
    return w, h, pixel

if __name__ == '__main__':
    # pngcheck.py FILE W H: a valid PNG of W x H pixels
    w, h, _ = decode(sys.argv[1])
    assert (w, h) == (int(sys.argv[2]), int(sys.argv[3])), 'size %dx%d' % (w, h)
EOF

# pngstored.py FILE: the zlib stream holds stored (uncompressed) deflate
# blocks only (ASTAR_PNG_STORED=1: zlib level 0).
cat >"$TMP/pngstored.py" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pos, z = 8, b''
while pos < len(d):
    n, = struct.unpack('>I', d[pos:pos + 4])
    if d[pos + 4:pos + 8] == b'IDAT':
        z += d[pos + 8:pos + 8 + n]
    pos += 12 + n
i = 2  # after the zlib header; stored blocks start on byte boundaries
while True:
    final, btype = z[i] & 1, (z[i] >> 1) & 3
    assert btype == 0, 'deflate block type %d at byte %d, expected 0 (stored)' % (btype, i)
    n, = struct.unpack('<H', z[i + 1:i + 3])
    i += 5 + n
    if final:
        break
assert i + 4 == len(z), 'stream length'
EOF

# pngsame.py A B: two PNGs with identical pixels.
cat >"$TMP/pngsame.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
wa, ha, pa = decode(sys.argv[1])
wb, hb, pb = decode(sys.argv[2])
assert (wa, ha) == (wb, hb), 'sizes differ'
for y in range(0, ha, 3):
    for x in range(0, wa, 3):
        assert pa(x, y) == pb(x, y), 'pixel (%d,%d) differs' % (x, y)
EOF

# trace.py FILE SOLVE-STDOUT: the trace is JSON Lines with a header, events
# and a result line, consistent with the statistics `solve` printed.
cat >"$TMP/trace.py" <<'EOF'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
head, events, tail = lines[0], lines[1:-1], lines[-1]
for k in ('map', 'width', 'height', 'start', 'goal', 'options'):
    assert k in head, 'header lacks %s' % k
for k in ('status', 'cost', 'length', 'path', 'expanded', 'generated'):
    assert k in tail, 'result line lacks %s' % k
kinds = {}
for e in events:
    assert e['event'] in ('push', 'expand', 'improve', 'reopen', 'goal'), e
    for k in ('x', 'y', 'px', 'py', 'g', 'h', 'f', 'expanded'):
        assert k in e, 'event lacks %s: %r' % (k, e)
    assert abs(e['f'] - e['g'] - e['h']) <= 1e-6 * (1 + abs(e['f'])), 'f != g + h: %r' % e
    kinds[e['event']] = kinds.get(e['event'], 0) + 1
report = open(sys.argv[2]).read()
m = re.search(r'expanded (\d+), generated (\d+), reopened (\d+)', report)
assert m, 'no statistics in the solve output'
exp, gen, reo = map(int, m.groups())
n_exp = kinds.get('expand', 0) + kinds.get('goal', 0)
assert n_exp == exp == tail['expanded'], 'expansions: trace %d, solve %d' % (n_exp, exp)
n_gen = kinds.get('push', 0) + kinds.get('improve', 0) + kinds.get('reopen', 0)
assert n_gen == gen == tail['generated'], 'pushes: trace %d, solve %d' % (n_gen, gen)
assert kinds.get('reopen', 0) == reo
if tail['status'] == 'ok':
    assert kinds.get('goal') == 1 and events[-1]['event'] == 'goal', 'goal event last'
    assert [events[-1]['x'], events[-1]['y']] == head['goal']
    assert tail['path'][0] == head['start'] and tail['path'][-1] == head['goal']
    assert len(tail['path']) == tail['length']
    m = re.search(r'cost: +(\S+)', report)
    assert m and abs(float(m.group(1)) - tail['cost']) < 1e-6, 'cost'
EOF

# replay.py TRACE K: cell states after K expansions -- {(x,y): 'open'|'closed'}.
cat >"$TMP/replay.py" <<'EOF'
import json
def replay(path, k=None):
    lines = [json.loads(l) for l in open(path)]
    state, parent, n = {}, {}, 0
    for e in lines[1:-1]:
        c = (e['x'], e['y'])
        if e['event'] in ('expand', 'goal'):
            if k is not None and n == k:
                break
            n += 1
            state[c] = 'closed'
        elif e['event'] == 'reopen' or state.get(c) != 'closed':
            state[c] = 'open'
        parent[c] = (e['px'], e['py'])
    return lines[0], state, parent
EOF

# svgstate.py SVG TRACE K: the SVG parses; its recorded counts match a
# replay of the trace up to K expansions ("-": the whole search).
cat >"$TMP/svgstate.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from replay import replay
root = ET.parse(sys.argv[1]).getroot()
k = None if sys.argv[3] == '-' else int(sys.argv[3])
head, state, _ = replay(sys.argv[2], k)
closed = sum(1 for s in state.values() if s == 'closed')
opened = sum(1 for s in state.values() if s == 'open')
if k is not None:
    assert closed == k, 'the trace has %d closed cells after %d expansions' % (closed, k)
assert int(root.get('data-closed')) == closed, 'closed: svg %s, trace %d' % (root.get('data-closed'), closed)
assert int(root.get('data-open')) == opened, 'open: svg %s, trace %d' % (root.get('data-open'), opened)
EOF

# arrows.py SVG TRACE CELL: every visited cell but the start has one arrow,
# drawn from its centre (the disc) towards its parent (the head's tip).
cat >"$TMP/arrows.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from replay import replay
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
cell = int(sys.argv[3])
head, state, parent = replay(sys.argv[2])
items = [el for el in root.iter() if el.tag in (ns + 'polygon', ns + 'circle')]
arrows = {}
for i, el in enumerate(items):
    if el.tag != ns + 'circle':
        continue
    cx, cy = float(el.get('cx')), float(el.get('cy'))
    tip = [float(v) for v in items[i - 1].get('points').split()[0].split(',')]
    c = (int(cx // cell), int(cy // cell))
    dx, dy = tip[0] - cx, tip[1] - cy
    sx = 0 if abs(dx) < cell * 0.05 else (1 if dx > 0 else -1)
    sy = 0 if abs(dy) < cell * 0.05 else (1 if dy > 0 else -1)
    arrows[c] = (sx, sy)
visited = [c for c in state if list(c) != head['start']]
assert len(arrows) == len(visited), '%d arrows for %d visited cells' % (len(arrows), len(visited))
for c in visited:
    p = parent[c]
    want = (p[0] - c[0], p[1] - c[1])
    assert arrows[c] == want, 'cell %r: arrow %r, parent at %r' % (c, arrows[c], want)
texts = [t.text for t in root.iter(ns + 'text')]
assert len(texts) >= 3 * len(state), 'F/G/H labels: %d texts for %d cells' % (len(texts), len(state))
EOF

# pngstate.py PNG TRACE K CELL: the centre pixel of every cell has the colour
# of its state after K expansions (walls black, unseen white, open blue,
# closed red; the start and goal cells are skipped -- they have their own).
cat >"$TMP/pngstate.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
from replay import replay
w, h, pixel = decode(sys.argv[1])
head, state, _ = replay(sys.argv[2], int(sys.argv[3]))
cell = int(sys.argv[4])
want = {'open': '4f8fea', 'closed': 'ffc4bc', None: 'ffffff'}
assert (w, h) == (head['width'] * cell, head['height'] * cell), 'size'
bad = 0
counts = {}
for y in range(head['height']):
    for x in range(head['width']):
        if [x, y] in (head['start'], head['goal']):
            continue
        p = pixel(x * cell + cell // 2, y * cell + cell // 2)
        s = state.get((x, y))
        counts[p] = counts.get(p, 0) + 1
        if p != want[s] and not (s is None and p == '000000'):
            bad += 1
assert bad == 0, '%d cells with the wrong colour (%r)' % (bad, counts)
EOF

# svgraster.py SVG PNG [MAX_BYTES MAX_ELEMENTS]: the SVG is well-formed XML
# whose rectangles (<rect>s and the subpaths "M|m x y h w v h h -w z" of its
# <path>s, nothing else drawn) paint, in document order, exactly the PNG's
# pixels; and it holds at most MAX_BYTES bytes and MAX_ELEMENTS elements.
cat >"$TMP/svgraster.py" <<'EOF'
import os, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
w, h, pixel = decode(sys.argv[2])
assert (int(root.get('width')), int(root.get('height'))) == (w, h), 'size'
img = [[None] * w for _ in range(h)]
def fill(x, y, rw, rh, color):
    assert rw > 0 and rh > 0, 'empty rectangle'
    for yy in range(max(y, 0), min(y + rh, h)):
        row = img[yy]
        for xx in range(max(x, 0), min(x + rw, w)):
            row[xx] = color
count = 0
for el in root.iter():
    tag = el.tag[len(ns):]
    count += 1
    if tag in ('svg', 'g', 'style'):
        continue
    assert tag in ('rect', 'path'), 'a %s element: not a rectangle' % tag
    color = el.get('fill').lstrip('#')
    if tag == 'rect':
        fill(int(el.get('x', 0)), int(el.get('y', 0)), int(el.get('width')), int(el.get('height')), color)
        continue
    d = el.get('d')
    sub = r'\s*([Mm])(-?\d+) (-?\d+)h(\d+)v(\d+)h-(\d+)z'
    assert re.fullmatch('(%s)+\\s*' % sub, d), 'path data: %r' % d[:80]
    x = y = 0
    for m in re.finditer(sub, d):
        a, b = int(m.group(2)), int(m.group(3))
        x, y = (a, b) if m.group(1) == 'M' else (x + a, y + b)
        assert m.group(4) == m.group(6), 'not a rectangle'
        fill(x, y, int(m.group(4)), int(m.group(5)), color)
bad = [(x, y) for y in range(h) for x in range(w) if img[y][x] != pixel(x, y)]
assert not bad, '%d pixels differ from the PNG, first at %r: svg %s, png %s' % (
    len(bad), bad[0], img[bad[0][1]][bad[0][0]], pixel(*bad[0]))
if len(sys.argv) > 3:
    size = os.path.getsize(sys.argv[1])
    assert size <= int(sys.argv[3]), '%d bytes, more than %s' % (size, sys.argv[3])
    assert count <= int(sys.argv[4]), '%d elements, more than %s' % (count, sys.argv[4])
EOF

# svgframes.py TOTAL N FILES...: frame i shows round((i+1)*TOTAL/N) expansions.
cat >"$TMP/svgframes.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
total, n = int(sys.argv[1]), int(sys.argv[2])
files = sys.argv[3:]
assert len(files) == n
for i, f in enumerate(files):
    e = int(ET.parse(f).getroot().get('data-expanded'))
    want = int((i + 1) * total / n + 0.5)
    assert e == want, '%s: %d expansions, expected %d' % (f, e, want)
EOF

# ---- fixtures ----------------------------------------------------------------------

cat >"$TMP/tutorial.txt" <<'EOF'
; seed 000's example
.......
...#...
.S.#.G.
...#...
.......
EOF
TUT=(--costs 10,14 --tie newest)

# A map with terrain costs and a room with one door.
cat >"$TMP/terrain.txt" <<'EOF'
S.....3333......
.####.3333......
.#..#.99999.....
.#..#.99999..44.
.#.##........44.
.............44G
EOF

ROOMS=$ROOT/tests/data/small/rooms64-8.map
if [ ! -f "$ROOMS" ]; then
  echo "$0: missing $ROOMS" >&2
  exit 2
fi

# ---- solve --trace ------------------------------------------------------------------

run solve "$TMP/tutorial.txt" "${TUT[@]}" --trace "$TMP/tut.jsonl"
expect_rc "trace: tutorial" 0
cp "$OUT" "$TMP/tut.solve"
check "trace: tutorial JSON lines match the statistics" trace.py "$TMP/tut.jsonl" "$TMP/tut.solve"

run solve "$ROOMS" 44 35 1 3 --trace "$TMP/rooms.jsonl"
expect_rc "trace: rooms" 0
cp "$OUT" "$TMP/rooms.solve"
check "trace: rooms JSON lines match the statistics" trace.py "$TMP/rooms.jsonl" "$TMP/rooms.solve"

# Inconsistent heuristic (Manhattan with diagonals): reopenings are traced too.
run solve "$ROOMS" 44 35 1 3 --heuristic manhattan --reopen always --trace "$TMP/reopen.jsonl"
expect_rc "trace: reopening search" 0
cp "$OUT" "$TMP/reopen.solve"
check "trace: reopening search matches the statistics" trace.py "$TMP/reopen.jsonl" \
  "$TMP/reopen.solve"

# No path: the result line says so.
run solve "$ROOMS" 2 2 60 60 --trace "$TMP/nopath.jsonl"
expect_rc "trace: no path" 1
if tail -1 "$TMP/nopath.jsonl" | grep -q '"status":"no_path"'; then ok; else
  fail "trace: no_path status in the result line"
fi

# `--trace -`: standard output holds the trace alone.
run solve "$TMP/tutorial.txt" "${TUT[@]}" --trace -
expect_rc "trace to stdout" 0
if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$OUT" 2>/dev/null &&
  cmp -s "$OUT" "$TMP/tut.jsonl"; then ok; else
  fail "trace to stdout: same JSON lines as the file"
fi

run solve "$TMP/tutorial.txt" --trace
expect_rc "trace: missing value" 2
expect_one_line_err "trace: missing value"

run solve "$TMP/tutorial.txt" --trace "$TMP/x.jsonl" --algo jps
expect_rc "trace: jps reports its events" 0
run solve "$TMP/tutorial.txt" --trace "$TMP/x.jsonl" --algo greedy
expect_rc "trace: not with greedy" 2
expect_one_line_err "trace: not with greedy"

run solve "$TMP/tutorial.txt" --trace "$TMP/no/such/dir/t.jsonl"
expect_rc "trace: unwritable file" 1
expect_one_line_err "trace: unwritable file"
expect_err "trace: unwritable file names it" "no/such/dir/t.jsonl"

# ---- render: SVG ----------------------------------------------------------------------

run render "$TMP/tutorial.txt" "${TUT[@]}" -o "$TMP/tut.svg"
expect_rc "render: tutorial svg" 0
check "render: tutorial svg state matches the trace" svgstate.py "$TMP/tut.svg" "$TMP/tut.jsonl" -
check "render: tutorial svg arrows point to the parents" arrows.py "$TMP/tut.svg" \
  "$TMP/tut.jsonl" 72
if python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert (r.get("width"), r.get("height")) == ("504", "360")' "$TMP/tut.svg"; then ok; else
  fail "render: tutorial svg is 7x72 by 5x72 px"
fi

run render "$TMP/tutorial.txt" "${TUT[@]}" --cell 90 -o "$TMP/tut90.svg"
expect_rc "render: --cell 90" 0
check "render: arrows at --cell 90" arrows.py "$TMP/tut90.svg" "$TMP/tut.jsonl" 90

# The mirror path (default ties) has other parents: still right.
run solve "$TMP/tutorial.txt" --costs 10,14 --trace "$TMP/tutl.jsonl"
run render "$TMP/tutorial.txt" --costs 10,14 -o "$TMP/tutl.svg"
check "render: arrows with larger-g ties" arrows.py "$TMP/tutl.svg" "$TMP/tutl.jsonl" 72

# --step K: the picture holds the search after K expansions.
for k in 0 1 5 100 500; do
  run render "$ROOMS" 44 35 1 3 --step $k -o "$TMP/step$k.svg"
  expect_rc "render: --step $k" 0
  check "render: --step $k matches the trace" svgstate.py "$TMP/step$k.svg" \
    "$TMP/rooms.jsonl" $k
done

# --frames N: evenly spread, the last one the whole search.
total=$(grep -Eo 'expanded [0-9]+' "$TMP/rooms.solve" | head -1 | cut -d' ' -f2)
run render "$ROOMS" 44 35 1 3 --frames 4 -o "$TMP/fr.svg"
expect_rc "render: --frames 4" 0
check "render: --frames 4 spread over the search" svgframes.py "$total" 4 \
  "$TMP/fr-000.svg" "$TMP/fr-001.svg" "$TMP/fr-002.svg" "$TMP/fr-003.svg"
check "render: last frame is the whole search" svgstate.py "$TMP/fr-003.svg" "$TMP/rooms.jsonl" -

# ---- render: PNG ------------------------------------------------------------------------

run render "$TMP/tutorial.txt" "${TUT[@]}" -o "$TMP/tut.png"
expect_rc "render: tutorial png" 0
check "render: tutorial png is valid, 504 x 360" pngcheck.py "$TMP/tut.png" 504 360

ASTAR_PNG_STORED=1 "$ASTAR" render "$TMP/tutorial.txt" "${TUT[@]}" -o "$TMP/tut-stored.png" \
  >/dev/null 2>&1
check "render: stored-block png is valid" pngcheck.py "$TMP/tut-stored.png" 504 360
check "render: ASTAR_PNG_STORED=1 writes stored blocks only" pngstored.py "$TMP/tut-stored.png"
check "render: stored and compressed png agree" pngsame.py "$TMP/tut.png" "$TMP/tut-stored.png"

for k in 0 1 37 400; do
  run render "$ROOMS" 44 35 1 3 --step $k --cell 12 -o "$TMP/step$k.png"
  expect_rc "render: png --step $k" 0
  check "render: png --step $k cell colours match the trace" pngstate.py "$TMP/step$k.png" \
    "$TMP/rooms.jsonl" $k 12
done

run render "$ROOMS" 44 35 1 3 --frames 3 --cell 2 -o "$TMP/fr.png"
expect_rc "render: png --frames 3" 0
for i in 000 001 002; do
  check "render: png frame $i" pngcheck.py "$TMP/fr-$i.png" 128 128
done

run render "$TMP/terrain.txt" --cell 80 -o "$TMP/terrain.png"
expect_rc "render: terrain map" 0
check "render: terrain png" pngcheck.py "$TMP/terrain.png" $((16 * 80)) $((6 * 80))
run render "$TMP/terrain.txt" --no-fgh --cell 10 -o "$TMP/terrain2.png"
check "render: terrain png without labels" pngcheck.py "$TMP/terrain2.png" 160 60

# A 600 x 600 map: quick as PNG (1 px a cell) and as SVG, which draws the
# same pixels (the SVG was refused above 65 536 cells).
python3 -c '
import random
random.seed(5)
rows = ["".join("#" if random.random() < 0.2 else "." for _ in range(600)) for _ in range(600)]
rows[0] = "." + rows[0][1:]
rows[-1] = rows[-1][:-1] + "."
print("\n".join(rows))' >"$TMP/big.txt"
run render "$TMP/big.txt" 0 0 599 599 -o "$TMP/big.png"
expect_rc "render: 600 x 600 png" 0
check "render: 600 x 600 png is valid" pngcheck.py "$TMP/big.png" 600 600

run render "$TMP/big.txt" 0 0 599 599 -o "$TMP/big.svg"
expect_rc "render: 600 x 600 svg" 0
check "render: 600 x 600 svg paints the png's pixels" svgraster.py "$TMP/big.svg" "$TMP/big.png"

# A standard Moving AI map, 256 x 257: the SVG is well-formed, paints the
# PNG's pixels, and is small and a few elements (measured: 32 650 bytes,
# 15 elements; the one-<rect>-a-run SVG was 125 777 bytes, 2 077 <rect>s).
DEN=${ASTAR_MOVINGAI_DIR:-$ROOT/../shared/bench/movingai}/dao/den520d.map
if [ -f "$DEN" ]; then
  run render "$DEN" 244 2 18 204 -o "$TMP/den.svg"
  expect_rc "render: den520d as svg" 0
  run render "$DEN" 244 2 18 204 -o "$TMP/den.png"
  expect_rc "render: den520d as png" 0
  check "render: den520d svg paints the png's pixels, <= 48 KB, <= 40 elements" svgraster.py \
    "$TMP/den.svg" "$TMP/den.png" 49152 40
else
  echo "note: $DEN not found: the den520d SVG check is skipped"
fi

# ---- render: errors ------------------------------------------------------------------------

run render "$TMP/tutorial.txt"
expect_rc "render: missing -o" 2
expect_one_line_err "render: missing -o"

run render "$TMP/tutorial.txt" -o "$TMP/x.jpg"
expect_rc "render: bad extension" 2
expect_one_line_err "render: bad extension"

run render "$TMP/tutorial.txt" -o "$TMP/x.png" --step 3 --frames 2
expect_rc "render: --step with --frames" 2
expect_one_line_err "render: --step with --frames"

for bad in "--frames 0" "--frames x" "--cell 0" "--cell 999" "--step -1" "--bogus" "--fgh=1"; do
  # shellcheck disable=SC2086
  run render "$TMP/tutorial.txt" -o "$TMP/x.png" $bad
  expect_rc "render: bad argument $bad" 2
  expect_one_line_err "render: bad argument $bad"
done

run render "$TMP/tutorial.txt" 1 2 -o "$TMP/x.png"
expect_rc "render: two coordinates" 2
expect_one_line_err "render: two coordinates"

run render "$TMP/tutorial.txt" 1 2 3 2 -o "$TMP/x.png"
expect_rc "render: blocked goal" 1
expect_one_line_err "render: blocked goal"

run render "$TMP/tutorial.txt" 1 2 50 2 -o "$TMP/x.png"
expect_rc "render: goal outside (a usage error)" 2
expect_one_line_err "render: goal outside"

run render "$TMP/no-such-map.txt" -o "$TMP/x.png"
expect_rc "render: missing map" 1
expect_one_line_err "render: missing map"

run render "$TMP/tutorial.txt" -o "$TMP/no/such/dir/x.png"
expect_rc "render: unwritable png" 1
expect_one_line_err "render: unwritable png"
expect_err "render: unwritable png names the file" "no/such/dir/x.png"

# A full disk: the file opens, the writes fail (libpng's error is not printed;
# the tool's one line says why, after the search's summary on stdout).
if [ -w /dev/full ]; then
  ln -s /dev/full "$TMP/full.png"
  run render "$TMP/tutorial.txt" -o "$TMP/full.png"
  expect_rc "render: png on a full disk" 1
  expect_one_line_err "render: png on a full disk" stdout-ok
  expect_err "render: png on a full disk says why" "full.png: No space left on device"
fi

run render "$TMP/tutorial.txt" -o "$TMP/no/such/dir/x.svg"
expect_rc "render: unwritable svg" 1
expect_one_line_err "render: unwritable svg"
# ... refused before any search: nothing on stdout (no map or status lines).
if [ ! -s "$OUT" ]; then ok; else fail "render: unwritable output still searched"; fi

# A partial path: its length is reported as solve reports it.
printf 'S.#.\n..#G\n..#.\n' >"$TMP/walled.txt"
run solve "$TMP/walled.txt" --partial --no-picture
solve_len=$(sed -n 's/^length: *\([0-9]*\) cells.*/\1/p' "$OUT")
run render "$TMP/walled.txt" --partial -o "$TMP/partial.svg"
render_len=$(sed -n 's/^length: *\([0-9]*\) cells.*/\1/p' "$OUT")
if [ -n "$solve_len" ] && [ "$solve_len" != 0 ] && [ "$solve_len" = "$render_len" ]; then ok; else
  fail "render --partial length '$render_len', solve says '$solve_len'"
fi

# ---- hex maps ----------------------------------------------------------------------------

# hexgeo.py: the centre of a cell in a hex picture (the library's layout:
# circumradius R = CELL / sqrt(3), one pixel of padding) and the picture size.
cat >"$TMP/hexgeo.py" <<'EOF'
import math
def center(shape, cell, x, y):
    flat, even = shape.startswith('flat'), shape.endswith(('even-r', 'even-q'))
    r = cell / math.sqrt(3)
    line = x if flat else y
    shove = (line % 2 == 0) if even else (line % 2 == 1)
    if flat:
        return 1 + r * (1 + 1.5 * x), 1 + r * math.sqrt(3) * (y + 0.5 + 0.5 * shove)
    return 1 + r * math.sqrt(3) * (x + 0.5 + 0.5 * shove), 1 + r * (1 + 1.5 * y)
def size(shape, cell, w, h):
    r = cell / math.sqrt(3)
    if shape.startswith('flat'):
        return math.ceil(r * (1.5 * w + 0.5) + 2), math.ceil(cell * (h + 0.5) + 2)
    return math.ceil(cell * (w + 0.5) + 2), math.ceil(r * (1.5 * h + 0.5) + 2)
if __name__ == '__main__':
    # hexgeo.py SHAPE CELL W H: prints the picture's width and height
    import sys
    print(*size(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
EOF

# hexarrows.py SVG TRACE: every visited cell but the start has one arrow,
# from its centre towards its parent's centre; F/G/H labels for each.
cat >"$TMP/hexarrows.py" <<'EOF'
import math, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from replay import replay
from hexgeo import center
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
shape, cell = root.get('data-hex'), float(root.get('data-cell'))
head, state, parent = replay(sys.argv[2])
cells = {(x, y): center(shape, cell, x, y)
         for x in range(head['width']) for y in range(head['height'])}
items = [el for el in root.iter() if el.tag in (ns + 'polygon', ns + 'circle')]
arrows = {}
for i, el in enumerate(items):
    if el.tag != ns + 'circle':
        continue
    cx, cy = float(el.get('cx')), float(el.get('cy'))
    c = min(cells, key=lambda k: (cells[k][0] - cx) ** 2 + (cells[k][1] - cy) ** 2)
    assert math.hypot(cells[c][0] - cx, cells[c][1] - cy) < 0.02, 'disc off centre at %r' % (c,)
    tip = [float(v) for v in items[i - 1].get('points').split()[0].split(',')]
    arrows[c] = (tip[0] - cx, tip[1] - cy)
visited = [c for c in state if list(c) != head['start']]
assert len(arrows) == len(visited), '%d arrows for %d visited cells' % (len(arrows), len(visited))
for c in visited:
    p = tuple(parent[c])
    want = (cells[p][0] - cells[c][0], cells[p][1] - cells[c][1])
    assert abs(math.hypot(*want) - cell) < 0.05, 'cell %r: parent %r is not a neighbour' % (c, p)
    a = arrows[c]
    cos = (a[0] * want[0] + a[1] * want[1]) / (math.hypot(*a) * math.hypot(*want))
    assert cos > 0.999, 'cell %r: arrow %r, parent at %r' % (c, a, want)
texts = [t.text for t in root.iter(ns + 'text')]
assert len(texts) >= 3 * len(state), 'F/G/H labels: %d texts for %d cells' % (len(texts), len(state))
EOF

# hexpng.py PNG TRACE K CELL MAP: the centre pixel of every cell has the
# colour of its state after K expansions (K '-': the whole search, the path
# green), walls black as in the map file; start and goal skipped.
cat >"$TMP/hexpng.py" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
from replay import replay
from hexgeo import center, size
w, h, pixel = decode(sys.argv[1])
k = None if sys.argv[3] == '-' else int(sys.argv[3])
head, state, _ = replay(sys.argv[2], k)
cell = int(sys.argv[4])
lines = [l.split() for l in open(sys.argv[5]) if l.strip() and not l.lstrip().startswith(';')]
words = lines[0][1:] + [{'pointy': 'odd-r', 'flat': 'odd-q'}[lines[0][1]]]
shape = ' '.join(words[:2])
rows = [''.join(r) for r in lines[1:]]
assert (w, h) == size(shape, cell, head['width'], head['height']), 'size %dx%d' % (w, h)
path = set()
if k is None:
    path = {tuple(c) for c in json.loads(open(sys.argv[2]).readlines()[-1])['path']}
want = {'open': '4f8fea', 'closed': 'ffc4bc', None: 'ffffff'}
bad = []
for y in range(head['height']):
    for x in range(head['width']):
        if [x, y] in (head['start'], head['goal']):
            continue
        cx, cy = center(shape, cell, x, y)
        p = pixel(int(cx), int(cy))
        if rows[y][x] == '#':
            expect = '000000'
        elif (x, y) in path:
            expect = '2fb344'
        else:
            expect = want[state.get((x, y))]
        if rows[y][x] in '23456789' and p != expect:
            continue  # terrain shades the tint
        if p != expect:
            bad.append(((x, y), p, expect))
assert not bad, '%d cells with the wrong colour, e.g. %r' % (len(bad), bad[:3])
EOF

# A pointy map without terrain (colours are exact), and the flat sample.
cat >"$TMP/plain.hex" <<'EOF'
hex pointy even-r
 . . . . . . . . . .
. # # # # . . . . .
 S . . . # . # # # .
. . . . # . . . # .
 . # . . # . # . # G
. . . . . . # . . .
EOF
HEXF=$ROOT/tests/data/hex/flat.hex

run solve "$TMP/plain.hex" --trace "$TMP/hex.jsonl"
expect_rc "hex trace: solve" 0
cp "$OUT" "$TMP/hex.solve"
check "hex trace: JSON lines match the statistics" trace.py "$TMP/hex.jsonl" "$TMP/hex.solve"
if head -1 "$TMP/hex.jsonl" | grep -q '"hex":"pointy even-r"'; then ok; else
  fail "hex trace: the header names the shape"
fi

run render "$TMP/plain.hex" -o "$TMP/hex.svg"
expect_rc "hex render: svg" 0
check "hex render: svg state matches the trace" svgstate.py "$TMP/hex.svg" "$TMP/hex.jsonl" -
check "hex render: arrows point to the parents" hexarrows.py "$TMP/hex.svg" "$TMP/hex.jsonl"
run render "$TMP/plain.hex" --cell 120 -o "$TMP/hex120.svg"
check "hex render: arrows at --cell 120" hexarrows.py "$TMP/hex120.svg" "$TMP/hex.jsonl"

for k in 0 1 7 20; do
  run render "$TMP/plain.hex" --step $k -o "$TMP/hexstep$k.svg"
  expect_rc "hex render: --step $k" 0
  check "hex render: --step $k matches the trace" svgstate.py "$TMP/hexstep$k.svg" \
    "$TMP/hex.jsonl" $k
  run render "$TMP/plain.hex" --step $k --no-fgh --cell 14 -o "$TMP/hexstep$k.png"
  check "hex render: png --step $k cell colours" hexpng.py "$TMP/hexstep$k.png" \
    "$TMP/hex.jsonl" $k 14 "$TMP/plain.hex"
done
run render "$TMP/plain.hex" --no-fgh --cell 20 -o "$TMP/hexfinal.png"
check "hex render: final png, path green" hexpng.py "$TMP/hexfinal.png" "$TMP/hex.jsonl" - 20 \
  "$TMP/plain.hex"

htotal=$(grep -Eo 'expanded [0-9]+' "$TMP/hex.solve" | head -1 | cut -d' ' -f2)
run render "$TMP/plain.hex" --frames 3 -o "$TMP/hexfr.svg"
expect_rc "hex render: --frames 3" 0
check "hex render: --frames 3 spread over the search" svgframes.py "$htotal" 3 \
  "$TMP/hexfr-000.svg" "$TMP/hexfr-001.svg" "$TMP/hexfr-002.svg"

# The flat sample with terrain: every method, both formats.
for algo in astar dijkstra greedy bidir; do
  run solve "$HEXF" --algo $algo --trace "$TMP/hf-$algo.jsonl"
  cp "$OUT" "$TMP/hf-$algo.solve"
  # (greedy's f is h alone; bidir ends with a meeting event that is no expansion)
  case $algo in astar | dijkstra)
    check "hex trace: flat --algo $algo" trace.py "$TMP/hf-$algo.jsonl" "$TMP/hf-$algo.solve" ;;
  esac
  run render "$HEXF" --algo $algo -o "$TMP/hf-$algo.svg"
  expect_rc "hex render: flat --algo $algo" 0
  check "hex render: flat --algo $algo state" svgstate.py "$TMP/hf-$algo.svg" \
    "$TMP/hf-$algo.jsonl" -
done
check "hex render: flat arrows" hexarrows.py "$TMP/hf-astar.svg" "$TMP/hf-astar.jsonl"
run render "$HEXF" --algo dijkstra --no-fgh --cell 16 -o "$TMP/hf.png"
expect_rc "hex render: flat png" 0
check "hex render: flat png colours" hexpng.py "$TMP/hf.png" "$TMP/hf-dijkstra.jsonl" - 16 "$HEXF"
hcell=$(sed -n 's/.*data-cell="\([0-9.]*\)".*/\1/p' "$TMP/hf-astar.svg")
run render "$HEXF" -o "$TMP/hf-fgh.png"
# shellcheck disable=SC2046 # the width and the height
check "hex render: flat png with labels is valid" pngcheck.py "$TMP/hf-fgh.png" \
  $(python3 "$TMP/hexgeo.py" "flat even-q" "$hcell" 10 6)

# hexsvg.py SVG PNG MAP [MAX_BYTES MAX_ELEMENTS [DOTS]]: the SVG is well-formed
# XML whose hexagons -- in <g transform="matrix(a 0 0 d e f)"> groups, per
# colour a path of the borders of its regions (filled by the nonzero rule),
# and with outlines a path of every hexagon -- give each cell of MAP the
# colour the PNG has at the cell's centre (cells under a disc, the start's,
# the goal's or a path dot's, are skipped); outlines, if any, draw every
# edge of every cell and nothing else; at most MAX_BYTES bytes and MAX_ELEMENTS elements; DOTS dots
# (discs of one colour and size) in one <path>.
cat >"$TMP/hexsvg.py" <<'EOF'
import bisect, math, os, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
from hexgeo import center
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
w, h, pixel = decode(sys.argv[2])
assert (int(root.get('width')), int(root.get('height'))) == (w, h), 'size'
shape, cell = root.get('data-hex'), float(root.get('data-cell'))
lines = [l.split() for l in open(sys.argv[3]) if l.strip() and not l.lstrip().startswith(';')]
rows = [''.join(r) for r in lines[1:]]
cells = {(x, y): center(shape, cell, x, y) for y in range(len(rows)) for x in range(len(rows[0]))}

def loops(d, closed=True):
    """The subpaths of path data made of M L H V Z (either case), closed
    ones (or, closed False, any) as lists of points."""
    out, cur, cmd, nums = [], [], None, []
    x = y = 0.0
    start = (0.0, 0.0)
    for t in re.findall(r'[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)', d):
        if t.isalpha():
            assert not nums, 'numbers left over before %s' % t
            cmd = t
            if t in 'Zz':
                assert cur, 'z without a subpath'
                out.append(cur)
                cur, (x, y) = [], start
            continue
        nums.append(float(t))
        if len(nums) < (1 if cmd in 'HhVv' else 2):
            continue
        rel = cmd.islower()
        if cmd in 'Mm':
            assert not closed or not cur, 'an unclosed subpath'
            if cur:
                out.append(cur)
            x, y = (x + nums[0], y + nums[1]) if rel else tuple(nums)
            start, cur = (x, y), [(x, y)]
            cmd = 'l' if rel else 'L'
        elif cmd in 'Ll':
            x, y = (x + nums[0], y + nums[1]) if rel else tuple(nums)
            cur.append((x, y))
        elif cmd in 'Hh':
            x = x + nums[0] if rel else nums[0]
            cur.append((x, y))
        else:
            y = y + nums[0] if rel else nums[0]
            cur.append((x, y))
        nums = []
    assert not nums and (not closed or not cur), 'an unclosed subpath'
    return out + ([cur] if cur else [])

def winding(polys):
    """Y -> (the x of the edges crossing height Y, sorted; suffix sums of
    their directions): the winding number of (X, Y) counts the crossings
    right of X."""
    rows = {}
    for p in polys:
        for (x1, y1), (x2, y2) in zip(p, p[1:] + p[:1]):
            for Y in range(math.ceil(min(y1, y2)), math.ceil(max(y1, y2))):
                x = x1 + (Y - y1) * (x2 - x1) / (y2 - y1)
                rows.setdefault(Y, []).append((x, 1 if y2 > y1 else -1))
    table = {}
    for Y, cr in rows.items():
        cr.sort()
        suffix = [0] * (len(cr) + 1)
        for i in range(len(cr) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + cr[i][1]
        table[Y] = ([c[0] for c in cr], suffix)
    return table

color, outlined, discs, dot_paths, count = {}, set(), [], [], 0
for el in root.iter():
    count += 1
    if el.tag == ns + 'circle':
        discs.append((float(el.get('cx')), float(el.get('cy')), float(el.get('r'))))
    elif el.tag == ns + 'path' and 'a' in el.get('d'):
        found = re.findall(r'M(-?[\d.]+) (-?[\d.]+)a([\d.]+)', el.get('d'))
        discs += [(float(x) + float(r), float(y), float(r)) for x, y, r in found]
        dot_paths.append(len(found))
for g in root.iter(ns + 'g'):
    m = re.fullmatch(r'matrix\((\S+) 0 0 (\S+) (\S+) (\S+)\)', g.get('transform', ''))
    if not m:
        continue
    a, d, e, f = map(float, m.groups())
    lattice = {}
    for c, (px, py) in cells.items():
        X, Y = (px - e) / a, (py - f) / d
        assert abs(X - round(X)) < 1e-6 and abs(Y - round(Y)) < 1e-6, 'cell %r off the lattice' % (c,)
        lattice[c] = (round(X), round(Y))
    at = {v: c for c, v in lattice.items()}
    by_row = {}
    for c, (X, Y) in lattice.items():
        by_row.setdefault(Y, []).append((X, c))
    for p in g.iter(ns + 'path'):
        if p.get('fill') == 'none':
            assert p.get('stroke') and p.get('vector-effect') == 'non-scaling-stroke', 'outline'
            for q in loops(p.get('d'), False):
                outlined.update(tuple(sorted(e)) for e in zip(q, q[1:]))
            continue
        table = winding(loops(p.get('d')))
        fill = p.get('fill').lstrip('#')
        for Y, (xs, suffix) in table.items():
            for X, c in by_row.get(Y, ()):
                if suffix[bisect.bisect_right(xs, X)] != 0:
                    color[c] = fill
assert color, 'no hexagons'
covered = set()  # cells whose centre lies under a disc (or its edge)
near = {}
for c, (px, py) in cells.items():
    near.setdefault((int(px) // 16, int(py) // 16), []).append(c)
for x, y, r in discs:
    for bx in range(int(x - r - 1) // 16, int(x + r + 1) // 16 + 1):
        for by in range(int(y - r - 1) // 16, int(y + r + 1) // 16 + 1):
            covered.update(c for c in near.get((bx, by), ())
                           if math.hypot(cells[c][0] - x, cells[c][1] - y) <= r + 1)
bad = []
for c, (px, py) in cells.items():
    if c in covered:
        continue
    want = pixel(int(px), int(py))
    if color.get(c, 'ffffff') != want:
        bad.append((c, color.get(c), want))
assert not bad, '%d cells differ from the png, e.g. %r' % (len(bad), bad[:3])
if outlined:
    corners = [[(1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)],
               [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]][shape.startswith('flat')]
    edges = set()
    for X, Y in lattice.values():
        q = [(float(X + dx), float(Y + dy)) for dx, dy in corners]
        edges.update(tuple(sorted(e)) for e in zip(q, q[1:] + q[:1]))
    assert outlined == edges, 'outlines: %d edges of the %d of the cells, %d others' % (
        len(outlined & edges), len(edges), len(outlined - edges))
if len(sys.argv) > 4:
    size = os.path.getsize(sys.argv[1])
    assert size <= int(sys.argv[4]), '%d bytes, more than %s' % (size, sys.argv[4])
    assert count <= int(sys.argv[5]), '%d elements, more than %s' % (count, sys.argv[5])
if len(sys.argv) > 6:
    assert dot_paths == [int(sys.argv[6])], 'path dots: %r, expected %s in one path' % (dot_paths, sys.argv[6])
EOF

# hexmap.py W H SHAPE SEED: a hex map with blobs of walls and of terrain,
# S top left, G bottom right.
cat >"$TMP/hexmap.py" <<'EOF'
import random, sys
w, h, shape, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
random.seed(seed)
g = [['.'] * w for _ in range(h)]
for _ in range(w * h // 400):
    cx, cy, r = random.randrange(w), random.randrange(h), random.randint(2, 9)
    ch = '#' if random.random() < 0.7 else random.choice('2359')
    for y in range(max(0, cy - r), min(h, cy + r + 1)):
        for x in range(max(0, cx - r), min(w, cx + r + 1)):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                g[y][x] = ch
g[0][0], g[h - 1][w - 1] = 'S', 'G'
print('hex ' + shape)
print('\n'.join(''.join(row) for row in g))
EOF

# pngblack.py PNG MARGIN: every pixel at least MARGIN percent of the width
# and height inside the picture is black.
cat >"$TMP/pngblack.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[0].rsplit('/', 1)[0])
from pngcheck import decode
w, h, pixel = decode(sys.argv[1])
k = int(sys.argv[2])
bad = [(x, y) for y in range(h * k // 100, h - h * k // 100)
       for x in range(w * k // 100, w - w * k // 100) if pixel(x, y) != '000000']
assert not bad, '%d pixels not black, first at %r: %s' % (len(bad), bad[0], pixel(*bad[0]))
EOF

# Hex maps over 65 536 cells (SVG was refused above that): the SVG gives
# every cell the PNG's colour, in a few elements -- each colour one path of
# its regions' borders. Measured: Dijkstra on the pointy map 136 974 bytes,
# 29 elements (one <polygon> a cell: 7 806 735 bytes, 72 423 elements);
# A* on the flat one 109 090 bytes, 24 elements (3 304 421, 30 617).
python3 "$TMP/hexmap.py" 300 240 pointy 1 >"$TMP/bighex.hex"
run render "$TMP/bighex.hex" --algo dijkstra -o "$TMP/bighex.svg"
expect_rc "hex render: 300 x 240 svg" 0
dots=$(sed -n 's/^length: *\([0-9]*\) cells.*/\1/p' "$OUT")
run render "$TMP/bighex.hex" --algo dijkstra -o "$TMP/bighex.png"
expect_rc "hex render: 300 x 240 png" 0
# shellcheck disable=SC2046
check "hex render: big png is valid" pngcheck.py "$TMP/bighex.png" \
  $(python3 "$TMP/hexgeo.py" "pointy odd-r" 3 300 240)
check "hex render: 300 x 240 svg has the png's cell colours, <= 160 KB, <= 40 elements" \
  hexsvg.py "$TMP/bighex.svg" "$TMP/bighex.png" "$TMP/bighex.hex" 163840 40 "$dots"

python3 "$TMP/hexmap.py" 256 257 "flat even-q" 8 >"$TMP/bighexf.hex"
run render "$TMP/bighexf.hex" -o "$TMP/bighexf.svg"
expect_rc "hex render: 256 x 257 flat svg" 0
run render "$TMP/bighexf.hex" -o "$TMP/bighexf.png"
check "hex render: 256 x 257 flat svg has the png's cell colours, <= 128 KB, <= 40 elements" \
  hexsvg.py "$TMP/bighexf.svg" "$TMP/bighexf.png" "$TMP/bighexf.hex" 131072 40

# Outlines (cells of 12 px or more): every edge, over the colours.
python3 "$TMP/hexmap.py" 40 30 pointy 9 >"$TMP/midhex.hex"
run render "$TMP/midhex.hex" --cell 14 -o "$TMP/midhex.svg"
run render "$TMP/midhex.hex" --cell 14 -o "$TMP/midhex.png"
check "hex render: outlined svg has the png's cell colours and outlines" \
  hexsvg.py "$TMP/midhex.svg" "$TMP/midhex.png" "$TMP/midhex.hex"
check "hex render: labelled svg has the png's cell colours" \
  hexsvg.py "$TMP/hf-astar.svg" "$TMP/hf-fgh.png" "$HEXF"

# Walls tile without seams: a blocked map's PNG is black inside. (Corners
# computed for each cell apart missed pixel centres on shared edges far
# from the origin: 234 white pixels in each of these.)
for shape in pointy flat; do
  python3 -c '
import sys
w, h = (24, 300) if sys.argv[1] == "flat" else (300, 24)
print("hex " + sys.argv[1])
for y in range(h):
    print(("S" if y == 0 else "#") + "#" * (w - 2) + ("G" if y == h - 1 else "#"))' $shape \
    >"$TMP/walls-$shape.hex"
  run render "$TMP/walls-$shape.hex" --cell 3 -o "$TMP/walls-$shape.png"
  check "hex render: $shape walls tile without seams" pngblack.py "$TMP/walls-$shape.png" 10
done

# Errors.
run render "$TMP/plain.hex" 1 1 9 4 -o "$TMP/x.svg"
expect_rc "hex render: blocked start" 1
expect_one_line_err "hex render: blocked start"
run render "$TMP/plain.hex"
expect_rc "hex render: missing -o" 2
expect_one_line_err "hex render: missing -o"
run render "$TMP/plain.hex" -o "$TMP/x.svg" --corner never
expect_rc "hex render: square-map option" 2
expect_err "hex render: square-map option explained" "--corner is an option of square maps"
run render "$TMP/plain.hex" --help
expect_rc "hex render: --help" 0
if grep -q "usage: astar render MAP.hex" "$OUT"; then ok; else fail "hex render: --help is the hex one"; fi

# Any-angle lines: Theta*'s bends, A*'s path string-pulled (orange, #E8590C).
run render "$ROOMS" 49 34 1 1 --algo theta -o "$TMP/theta.png"
expect_rc "render --algo theta" 0
if grep -q "^line: .*theta" "$OUT"; then ok; else fail "render theta: the line reported"; fi
check "render theta: png is valid" pngcheck.py "$TMP/theta.png" 1024 1024
run render "$ROOMS" 49 34 1 1 --smooth -o "$TMP/smooth.svg"
expect_rc "render --smooth" 0
if grep -q "^line: .*string-pulled" "$OUT"; then ok; else fail "render smooth: the line reported"; fi
if grep -qi "e8590c" "$TMP/smooth.svg"; then ok; else fail "render smooth: the line drawn"; fi
run render "$ROOMS" 49 34 1 1 --algo greedy -o "$TMP/x.png"
expect_rc "render --algo greedy refused" 2
expect_one_line_err "render --algo greedy refused"
expect_err "render --algo greedy: why" "--algo greedy: the engine reports node events"
run render "$ROOMS" 49 34 1 1 --algo theta --smooth -o "$TMP/x.png"
expect_rc "render theta --smooth refused" 2

run render --help
expect_rc "render: --help" 0

cli_summary
