// usage.ts -- a typed use of the whole API, checked with `tsc --noEmit`
// (js/tests/types/tsconfig.json) against js/types through the package's
// "exports" map, as a TypeScript user's project resolves it.
import { Grid, Finder, methods, AstarError, JpsPlus, Cpd, Hpa, Landmarks, HexGrid, Graph, Queue, Mesh, NavMesh, version, type Point, type Status, type MeshLocation, type MeshFault, type NavMeshStats } from 'libastar';

const grid: Grid = new Grid(10, 10).setWalkable(1, 1, false).setCost(2, 2, 3);
const g2 = Grid.fromArray([[0, 1], [0, 0]]);
const g3 = Grid.fromWalls(2, 2, new Uint8Array(4));
const g4 = Grid.fromMap('type octile\nheight 1\nwidth 1\nmap\n.\n');
const f = new Finder(grid, { method: 'astar', diagonal: true, corner: 'no-cut', heuristic: 'octile', weight: 1.2, tie: 'cross' });
const path: Point[] = f.findPath(0, 0, 9, 9);
const r = f.find(0, 0, 9, 9);
const s: Status = r.status;
const cost: number = r.cost + r.expanded;
const names: string[] = methods().map((m) => m.name);
const jp = new JpsPlus(g2);
const bytes: Uint8Array = jp.save();
const fj = new Finder(g2, { method: 'jps-plus', jpsPlus: JpsPlus.load(g2, bytes) });
const hpa = new Hpa(grid, { clusterSize: 8 });
hpa.sync();
const lm = new Landmarks(grid, { count: 4 });
const cpd = new Cpd(g3, { moves: 8 });
const hex = new HexGrid(5, 5, { orientation: 'flat' });
const fh = new Finder(hex, { method: 'bidir' });
const hp: Point[] = fh.findPath(0, 0, 4, 4);
const graph = new Graph(3, [[0, 1, 1], [1, 2, 2]], { coords: [[0, 0], [1, 0], [2, 0]] });
const fg = new Finder(graph, { method: 'dijkstra', landmarks: new Landmarks(graph) });
const nodes: number[] = fg.findPath(0, 2);
const q = new Queue(grid, { capacity: 16 });
const id: number = q.submit(0, 0, 9, 9, { method: 'astar', priority: 1 });
q.submit(0, 0, 9, 9, { finder: f });
const frame = q.update(100);
const out = q.take(id);
if (out) console.log(out.path.length, frame.pending);
try {
  new Finder(grid, { method: 'jps' });
} catch (e) {
  if (e instanceof AstarError) console.log(e.status, e.code);
}
console.log(version, path, s, cost, names, fj, lm, cpd, hp, nodes, g4, hpa);
// @ts-expect-error: corner names are checked
new Finder(grid, { corner: 'sometimes' });
// @ts-expect-error: moves are 4 or 8
new Finder(grid, { moves: 6 });
{
  using g5 = new Grid(2, 2);
  console.log(g5.width);
}
{
  const nav = new NavMesh(grid, { radius: 0.25, merge: true });
  const id: number = nav.addObstacle([[1, 1], [2, 1], [2, 2]]);
  nav.removeObstacle(id);
  const stats: NavMeshStats = nav.stats;
  const mesh: Mesh = Mesh.fromText(nav.mesh.toText());
  const loc: MeshLocation = mesh.locate([0.5, 0.5]);
  const fault: MeshFault | null = mesh.validate();
  const mf = new Finder(mesh, { method: 'polyanya' });
  const pts: Point[] = mf.findPath([0.5, 0.5], [9.5, 9.5]);
  const res = new Finder(nav, { method: 'funnel' }).find([0.5, 0.5], [9.5, 9.5]);
  const corridor: number = res.corridor;
  const onMesh: boolean = methods()[0].mesh;
  const poly = new NavMesh('poly\n1\n1\n3 0 0 1 0 0 1\n');
  console.log(stats.polygons, loc.place, fault?.message, pts, res.cost, corridor, onMesh, poly.mesh.area,
    Mesh.fromPolygons([[0, 0], [1, 0], [0, 1]], [[0, 1, 2]]).polygons(), Mesh.fromGrid(grid).vertexCount);
}
