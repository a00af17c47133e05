// Graphs as boards: the built-ins the command line names, graph6 and edge
// lists read and graph6 written. A graph here is {key, label, n,
// neighbours, edges, pos, net}: `neighbours[v]` in increasing order,
// `edges` as [u, v] with u < v. Where each vertex is drawn comes from the
// server (the library's layout, as `lightsout analyze --graph G --png`
// draws it), in the analysis's `layout`: `pos[v]`, an [x, y] in the unit
// box, is null until it has come; `net` when only the short edges are
// drawn (the cube's net: the others join stickers across a fold).

/** The most vertices the page draws and plays (the server takes more). */
export const MAX_VERTICES = 256;

/** The most text read as a pasted graph: an edge list of complete:256 is
 *  about 230 KB, past which pasting is not how a graph arrives. */
const MAX_TEXT = 256 * 1024;

/** The built-ins, as `lightsout --graph NAME` and the API spell them;
 *  `size` names the number a name takes, with its range. */
export const BUILT_INS = [
  { kind: "petersen", label: "Petersen graph (10 vertices)" },
  { kind: "cube", label: "Lights Out Cube (54 stickers)" },
  { kind: "cycle", label: "cycle of N vertices", size: [3, MAX_VERTICES, 8] },
  { kind: "path", label: "path of N vertices", size: [1, MAX_VERTICES, 8] },
  { kind: "complete", label: "complete graph of N vertices", size: [1, MAX_VERTICES, 6] },
  { kind: "hypercube", label: "hypercube of dimension D", size: [0, 8, 4] },
];

/** The layouts the server sent, by graph6: a graph met again (a link
 *  followed, the picker gone back to) is drawn at once. */
const placed = new Map();

function fromEdges(n, pairs, key, label) {
  const sets = Array.from({ length: n }, () => new Set());
  for (const [u, v] of pairs) {
    sets[u].add(v);
    sets[v].add(u);
  }
  const neighbours = sets.map((s) => [...s].sort((a, b) => a - b));
  const edges = [];
  neighbours.forEach((list, u) => list.forEach((v) => { if (u < v) edges.push([u, v]); }));
  const g = { key, label, n, neighbours, edges, pos: null, net: false };
  const known = placed.get(toGraph6(g));
  if (known) [g.pos, g.net] = [known.positions, known.net];
  return g;
}

/** Takes the server's `layout` of `g` (`{shape, net, positions}`, from
 *  /api/analyze); false when it does not fit the graph. */
export function placeGraph(g, layout) {
  if (!layout || !Array.isArray(layout.positions) || layout.positions.length !== g.n) return false;
  [g.pos, g.net] = [layout.positions, Boolean(layout.net)];
  placed.set(toGraph6(g), layout);
  return true;
}

/** The settings' line about the graph: its counts, and how a net is drawn. */
export function graphInfo(g) {
  const net = g.net ? " Drawn as its net: the edges between faces that touch only once it is folded are not drawn." : "";
  return `${g.n} vertices, ${g.edges.length} edges.${net}`;
}

/** The Lights Out Cube's 54 stickers, numbered as `Graph::named("cube")`
 *  numbers them: sticker (row, column) of face f (U, L, F, R, B, D) is
 *  9f + 3 row + column, the faces seen from outside as in the net
 *  U over L F R B over D. The adjacency comes from the geometry, as in
 *  the library: sticker centres on the cube [-3, 3]^3, neighbours on a
 *  face at squared distance 4, across an edge of the cube at 2. */
function cube() {
  // (outward normal, direction of increasing row, of increasing column).
  const faces = [
    [[0, 0, 1], [0, -1, 0], [1, 0, 0]],
    [[-1, 0, 0], [0, 0, -1], [0, -1, 0]],
    [[0, -1, 0], [0, 0, -1], [1, 0, 0]],
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
    [[0, 1, 0], [0, 0, -1], [-1, 0, 0]],
    [[0, 0, -1], [0, 1, 0], [1, 0, 0]],
  ];
  const centres = faces.flatMap(([normal, down, right]) => Array.from({ length: 9 }, (_, i) => {
    const r = Math.floor(i / 3) - 1, c = (i % 3) - 1;
    return [0, 1, 2].map((k) => 3 * normal[k] + 2 * r * down[k] + 2 * c * right[k]);
  }));
  const pairs = [];
  for (let v = 0; v < 54; v++) {
    for (let u = 0; u < v; u++) {
      const d = [0, 1, 2].reduce((s, k) => s + (centres[u][k] - centres[v][k]) ** 2, 0);
      if (d === 2 || d === 4) pairs.push([u, v]);
    }
  }
  return fromEdges(54, pairs, "cube", "the Lights Out Cube");
}

/** A built-in graph by kind and size (ignored by petersen and cube), as
 *  `Graph::named` builds it. Throws an Error with one line of why. */
export function builtIn(kind, size) {
  const spec = BUILT_INS.find((b) => b.kind === kind);
  if (!spec) throw new Error(`unknown graph '${kind}'`);
  let n = 0;
  if (spec.size) {
    const [least, most] = spec.size;
    if (!Number.isInteger(size) || size < least || size > most) {
      const letter = kind === "hypercube" ? "D" : "N";
      throw new Error(`the graph ${kind}:${letter} takes ${letter} from ${least} to ${most} on this page, not ${size}`);
    }
    n = size;
  }
  const key = spec.size ? `${kind}:${size}` : kind;
  const range = (count) => [...Array(count).keys()];
  switch (kind) {
    case "petersen": {
      const outer = range(5).map((i) => [i, (i + 1) % 5]);
      const spokes = range(5).map((i) => [i, i + 5]);
      const inner = range(5).map((i) => [5 + i, 5 + ((i + 2) % 5)]);
      return fromEdges(10, [...outer, ...spokes, ...inner], key, "the Petersen graph");
    }
    case "cube":
      return cube();
    case "cycle":
      return fromEdges(n, range(n).map((i) => [i, (i + 1) % n]), key, `the cycle of ${n} vertices`);
    case "path":
      return fromEdges(n, range(n).slice(1).map((i) => [i - 1, i]), key, `the path of ${n} vertices`);
    case "complete":
      return fromEdges(n, range(n).flatMap((v) => range(v).map((u) => [u, v])), key, `the complete graph of ${n} vertices`);
    default: {
      const count = 1 << n;
      const pairs = range(count).flatMap((u) => range(n).map((b) => [u, u ^ (1 << b)])).filter(([u, v]) => u < v);
      return fromEdges(count, pairs, key, `the ${n}-dimensional hypercube (${count} vertices)`);
    }
  }
}

/** A built-in by the name the CLI takes (`petersen`, `cycle:7`), or null
 *  when `name` is not one. */
export function namedGraph(name) {
  const [kind, size] = name.split(":");
  const spec = BUILT_INS.find((b) => b.kind === kind);
  if (!spec || (size === undefined) !== !spec.size) return null;
  return builtIn(kind, spec.size ? Number(size) : undefined);
}

function tooMany(n) {
  return new Error(`a graph of ${n} vertices is more than the ${MAX_VERTICES} this page draws (the command line takes it)`);
}

/** graph6 (nauty's format: n, then the upper triangle column by column,
 *  six bits a byte from 63), with its optional `>>graph6<<` header. */
function readGraph6(text) {
  const body = text.trim().replace(/^>>graph6<</, "");
  if (/\s/.test(body)) throw new Error("graph6: one graph only, on one line");
  const codes = [...body].map((ch) => ch.charCodeAt(0));
  const bad = codes.findIndex((b) => b < 63 || b > 126);
  if (bad >= 0) throw new Error(`graph6: '${body[bad]}' at column ${bad + 1} is not a graph6 character (? to ~)`);
  let n, at;
  if (codes[0] !== 126) [n, at] = [codes[0] - 63, 1];
  else if (codes[1] !== 126) [n, at] = [((codes[1] - 63) << 12) | ((codes[2] - 63) << 6) | (codes[3] - 63), 4];
  else throw tooMany("more than 258047");
  if (Number.isNaN(n)) throw new Error("graph6: the vertex count is cut short");
  if (n > MAX_VERTICES) throw tooMany(n);
  const bits = (n * (n - 1)) / 2, need = Math.ceil(bits / 6);
  if (codes.length - at !== need) {
    throw new Error(`graph6: ${n} vertices take ${need} bytes of edges after the count, not ${codes.length - at}`);
  }
  const pairs = [];
  let k = 0;
  for (let v = 1; v < n; v++) {
    for (let u = 0; u < v; u++, k++) {
      if (((codes[at + Math.floor(k / 6)] - 63) >> (5 - (k % 6))) & 1) pairs.push([u, v]);
    }
  }
  return fromEdges(n, pairs, null, `a graph of ${n} vertices`);
}

/** An edge list as the command line reads it: `u v` a line, 0-based, `#`
 *  comments and blank lines; a first line of one number is the vertex
 *  count. A repeated edge counts once; a self-loop is refused. */
function readEdgeList(text) {
  const pairs = [];
  let count = null, largest = -1, first = true;
  for (const [k, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const words = line.split(/\s+/);
    const numbers = words.map((w) => (/^[0-9]+$/.test(w) ? Number(w) : NaN));
    const where = `line ${k + 1}`;
    if (numbers.some(Number.isNaN)) throw new Error(`edge list, ${where}: '${line}' is not two vertex numbers`);
    if (first && numbers.length === 1) {
      if (numbers[0] > MAX_VERTICES) throw tooMany(numbers[0]);
      count = numbers[0];
    } else if (numbers.length !== 2) {
      throw new Error(`edge list, ${where}: '${line}' is not two vertex numbers`);
    } else {
      const [u, v] = numbers;
      if (u === v) throw new Error(`edge list, ${where}: a self-loop at ${u} (a press already reaches its own vertex)`);
      const top = Math.max(u, v);
      if (count !== null && top >= count) throw new Error(`edge list, ${where}: vertex ${top} is past the ${count} vertices of line 1`);
      if (top >= MAX_VERTICES) throw tooMany(top + 1);
      largest = Math.max(largest, top);
      pairs.push([Math.min(u, v), top]);
    }
    first = false;
  }
  const n = count ?? largest + 1;
  if (n < 1) throw new Error("the graph has no vertices: paste graph6 or edges `u v`, one a line");
  return fromEdges(n, pairs, null, `a graph of ${n} vertices`);
}

/** A pasted graph: graph6 if it looks like graph6 (as the command line
 *  decides: a first character of ? to ~ or `>`), else an edge list. */
export function parseGraph(text) {
  if (text.length > MAX_TEXT) throw new Error(`the pasted graph is ${text.length} characters, more than this page reads (${MAX_TEXT})`);
  const first = text.trim()[0];
  if (first === undefined) throw new Error("nothing pasted: paste graph6 or edges `u v`, one a line");
  const graph6 = first === ">" || (first.charCodeAt(0) >= 63 && first.charCodeAt(0) <= 126);
  const g = graph6 ? readGraph6(text) : readEdgeList(text);
  g.label = "the pasted graph";
  g.key = `g6:${toGraph6(g)}`;
  return g;
}

/** The graph in graph6, as `Graph::to_graph6` writes it. */
export function toGraph6(g) {
  const n = g.n;
  const out = n <= 62 ? [n] : [63, (n >> 12) & 63, (n >> 6) & 63, n & 63];
  let byte = 0, k = 0;
  for (let v = 1; v < n; v++) {
    const near = new Set(g.neighbours[v]);
    for (let u = 0; u < v; u++, k++) {
      byte = (byte << 1) | (near.has(u) ? 1 : 0);
      if (k % 6 === 5) { out.push(byte); byte = 0; }
    }
  }
  if (k % 6) out.push(byte << (6 - (k % 6)));
  return String.fromCharCode(...out.map((b) => b + 63));
}

/** The graph a link or the picker names: a built-in's name or `g6:` and
 *  graph6. Throws with one line when it is neither. */
export function graphFromKey(key) {
  if (key.startsWith("g6:")) return parseGraph(key.slice(3));
  const g = namedGraph(key);
  if (!g) throw new Error(`unknown graph '${key}'`);
  return g;
}
