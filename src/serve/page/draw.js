// Drawing boards on canvases: the board, its marks, and the counters beside it.

import { $, allOf, plural, state } from "./state.js";
import { saveToUrl } from "./url.js";
import { left, remaining, uniformState, won } from "./puzzle.js";

export function cellSize(rows, cols, room) {
  return Math.max(1, Math.min(48, Math.floor(room / Math.max(rows, cols))));
}

/** sRGB (0..255 each) of a colour given in OKLab, out-of-gamut channels
 *  clamped. OKLab because its L is perceived lightness: a ramp that steps
 *  down in L reads as steps in a greyscale print and without colour
 *  vision, whatever its hues do. */
function oklabToSrgb(L, a, b) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return linear.map((x) => {
    const c = Math.min(1, Math.max(0, x));
    return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
  });
}

/** The colour of state `v` of `states` (K > 2), and whether it is light
 *  (dark text on it) or dark (white text). One ramp for every K: lightness
 *  falls evenly from near white (state 0, as white is 0 for two states) to
 *  a dark blue (state K - 1), through yellow, orange, red and purple. */
export function stateColour(v, states) {
  const t = v / (states - 1);
  const L = 0.98 - 0.72 * t;
  // No hue at white; a little less colour towards the dark end.
  const chroma = 0.15 * Math.min(1, t / 0.15) * (1 - 0.4 * t);
  const hue = ((100 - 190 * t) * Math.PI) / 180;
  const [r, g, b] = oklabToSrgb(L, chroma * Math.cos(hue), chroma * Math.sin(hue));
  return { fill: `rgb(${r},${g},${b})`, light: L > 0.58 };
}

/** Writes `text` centred at (`x`, `y`) in at most `font` px, smaller if
 *  it is wider than `room`; nothing when that leaves under 7 px (a number
 *  too small to read is noise). Returns whether it wrote. */
function label(g, text, x, y, font, room, light) {
  g.font = `600 ${font}px system-ui, sans-serif`;
  const width = g.measureText(text).width;
  const size = width > room ? Math.floor((font * room) / width) : font;
  if (size < 7) return false;
  g.font = `600 ${size}px system-ui, sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillStyle = light ? "#111" : "#fff";
  g.fillText(text, x, y + size * 0.05);
  return true;
}

/** Draws `cells` as a board of `rows` × `cols` on `canvas`: for two
 *  states 1 is black and 0 white; for more, each cell in its state's
 *  colour with its number written on it (where the cells leave room). */
export function drawGrid(canvas, cells, rows, cols, size, states = state.states) {
  canvas.width = cols * size;
  canvas.height = rows * size;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  if (states === 2) {
    g.fillStyle = "#111";
    for (let i = 0; i < rows * cols; i++) {
      if (cells[i]) g.fillRect((i % cols) * size, Math.floor(i / cols) * size, size, size);
    }
  } else {
    const ramp = Array.from({ length: states }, (_, v) => stateColour(v, states));
    for (let i = 0; i < rows * cols; i++) {
      g.fillStyle = ramp[cells[i]].fill;
      g.fillRect((i % cols) * size, Math.floor(i / cols) * size, size, size);
    }
    for (let i = 0; size * 0.42 >= 7 && i < rows * cols; i++) {
      const x = (i % cols) * size + size / 2, y = Math.floor(i / cols) * size + size / 2;
      label(g, `${cells[i]}`, x, y, Math.floor(size * 0.42), size * 0.62, ramp[cells[i]].light);
    }
  }
  if (size >= 8) {
    g.strokeStyle = "#888";
    g.lineWidth = 1;
    g.beginPath();
    for (let r = 1; r < rows; r++) { g.moveTo(0, r * size + 0.5); g.lineTo(cols * size, r * size + 0.5); }
    for (let c = 1; c < cols; c++) { g.moveTo(c * size + 0.5, 0); g.lineTo(c * size + 0.5, rows * size); }
    g.stroke();
  }
  return g;
}

/** Where a graph's vertices go on a canvas `room` pixels wide: each
 *  vertex's box (the square around its disc), and the canvas's height.
 *  Discs are as large as their closest pair leaves room for, up to a
 *  cell's 48 px. */
function graphBoxes(graph, room) {
  const xs = graph.pos.map((p) => p[0]), ys = graph.pos.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const width = Math.max(...xs) - x0, height = Math.max(...ys) - y0;
  let closest = Infinity;
  for (let v = 0; v < graph.n; v++) {
    for (let u = 0; u < v; u++) {
      closest = Math.min(closest, Math.hypot(graph.pos[u][0] - graph.pos[v][0], graph.pos[u][1] - graph.pos[v][1]));
    }
  }
  if (!Number.isFinite(closest)) closest = Math.max(width, height, 1);
  const span = Math.max(width, height, closest);
  const diameter = Math.max(3, Math.min(48, Math.floor((0.84 * closest * room) / (span + closest))));
  const margin = diameter / 2 + 3;
  const scale = width > 0 ? (room - 2 * margin) / width : (room - 2 * margin) / span;
  const boxes = graph.pos.map(([x, y]) => ({
    x: margin + (width > 0 ? (x - x0) * scale : (room - 2 * margin) / 2) - diameter / 2,
    y: margin + (y - y0) * scale - diameter / 2,
    size: diameter,
  }));
  return { boxes, height: Math.ceil(height * scale + 2 * margin), unit: closest * scale };
}

/** Draws `cells` as the vertices of `graph` on `canvas`, `room` px wide:
 *  its edges as lines (in a net only the short ones: the others join
 *  stickers across a fold), its vertices as discs coloured as cells are.
 *  Returns the context and each vertex's box. */
export function drawGraph(canvas, cells, graph, room, states = state.states) {
  const { boxes, height, unit } = graphBoxes(graph, room);
  canvas.width = room;
  canvas.height = height;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  const centre = (v) => [boxes[v].x + boxes[v].size / 2, boxes[v].y + boxes[v].size / 2];
  g.strokeStyle = "#555";
  g.lineWidth = Math.max(1, Math.min(2, boxes[0].size / 12));
  g.beginPath();
  for (const [u, v] of graph.edges) {
    const [a, b] = [centre(u), centre(v)];
    if (graph.net && Math.hypot(a[0] - b[0], a[1] - b[1]) > unit * 1.3) continue;
    g.moveTo(...a);
    g.lineTo(...b);
  }
  g.stroke();
  const ramp = states === 2 ? null : Array.from({ length: states }, (_, v) => stateColour(v, states));
  boxes.forEach((box, v) => {
    const [x, y] = centre(v);
    g.beginPath();
    g.arc(x, y, box.size / 2, 0, 2 * Math.PI);
    g.fillStyle = ramp ? ramp[cells[v]].fill : cells[v] ? "#111" : "#fff";
    g.fill();
    g.lineWidth = 1;
    g.strokeStyle = "#111";
    g.stroke();
    if (ramp && box.size * 0.42 >= 7) label(g, `${cells[v]}`, x, y, Math.floor(box.size * 0.42), box.size * 0.62, ramp[cells[v]].light);
  });
  return { g, boxes };
}

/** A round mark with a black and a white edge: readable on either colour.
 *  Cells too small for rings get a square: the fill in a black frame. */
function mark(g, { x: left, y: top, size }, fill) {
  if (size < 6) {
    g.fillStyle = size < 4 ? fill : "#111";
    g.fillRect(left, top, size, size);
    g.fillStyle = fill;
    if (size >= 4) g.fillRect(left + 1, top + 1, size - 2, size - 2);
    return;
  }
  ringedDisc(g, left + size / 2, top + size / 2, Math.max(1, size * 0.3), fill, Math.max(1, size / 14));
}

/** A disc of `fill` at (`x`, `y`) ringed white then black, each ring
 *  `ring` wide: the marks' and the badges' shape. */
function ringedDisc(g, x, y, radius, fill, ring) {
  g.beginPath();
  g.arc(x, y, radius, 0, 2 * Math.PI);
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = ring;
  g.strokeStyle = "#fff";
  g.stroke();
  g.beginPath();
  g.arc(x, y, radius + g.lineWidth, 0, 2 * Math.PI);
  g.strokeStyle = "#111";
  g.stroke();
}

/** A press count on cell `i` for more than two states: a disc in the
 *  cell's bottom right corner (clear of the state's number) with a black
 *  and a white ring, the count written in it. Cells too small to write in
 *  get the mark of two states (the count is in the list under the board). */
function badge(g, box, fill, count, light = true) {
  const size = box.size;
  if (size < 20) {
    mark(g, box, fill);
    return;
  }
  const x = box.x + size * 0.8, y = box.y + size * 0.8;
  const radius = size * 0.17;
  ringedDisc(g, x, y, radius, fill, Math.max(1, size / 24));
  label(g, `${count}`, x, y, Math.floor(size * 0.26), radius * 1.8, light);
}

/** A cell of the proof for more than two states: its weight in a white
 *  box with a black frame, in the cell's top left corner. */
function proofWeight(g, box, weight) {
  const { x, y, size } = box;
  if (size < 20) {
    proofMark(g, box);
    return;
  }
  const side = Math.round(size * 0.34), inset = Math.max(2, Math.round(size * 0.04));
  g.fillStyle = "#111";
  g.fillRect(x + inset, y + inset, side, side);
  g.fillStyle = "#fff";
  g.fillRect(x + inset + 2, y + inset + 2, side - 4, side - 4);
  label(g, `${weight}`, x + inset + side / 2, y + inset + side / 2, Math.floor(side * 0.7), side - 4, true);
}

/** A small square, white in a black frame: a cell of the proof that a
 *  board cannot reach its target. */
function proofMark(g, { x, y, size }) {
  const side = Math.max(1, Math.round(size * 0.5)), inset = (size - side) / 2;
  g.fillStyle = "#111";
  g.fillRect(x + inset - 1, y + inset - 1, side + 2, side + 2);
  g.fillStyle = "#fff";
  g.fillRect(x + inset + 1, y + inset + 1, side - 2, side - 2);
}

/** A square outline around a cell's box: black inside white for the
 *  cursor; for the hint, thick black and white dashes along its edge. */
function outline(g, { x, y, size }, dashed) {
  const w = Math.max(2, Math.floor(size / (dashed ? 6 : 8)));
  if (state.graph) {
    ring(g, x + size / 2, y + size / 2, size / 2 + w, w, dashed);
    return;
  }
  g.lineWidth = w;
  g.setLineDash([]);
  g.strokeStyle = "#fff";
  g.strokeRect(x + w / 2, y + w / 2, size - w, size - w);
  g.strokeStyle = "#111";
  if (dashed) {
    g.setLineDash([w, w]);
    g.strokeRect(x + w / 2, y + w / 2, size - w, size - w);
    g.setLineDash([]);
  } else {
    g.strokeRect(x + w * 1.5, y + w * 1.5, size - 3 * w, size - 3 * w);
  }
}

/** The round outline of a vertex: as `outline`, a ring of radius `r`. */
function ring(g, x, y, r, w, dashed) {
  g.lineWidth = w;
  g.setLineDash([]);
  g.strokeStyle = "#fff";
  g.beginPath();
  g.arc(x, y, r, 0, 2 * Math.PI);
  g.stroke();
  g.strokeStyle = "#111";
  if (dashed) g.setLineDash([w, w]);
  g.beginPath();
  g.arc(x, y, dashed ? r : r + w, 0, 2 * Math.PI);
  g.stroke();
  g.setLineDash([]);
}

/** Room for the board: its area's width on a narrow screen, at most 640. */
function boardRoom() {
  const width = $("board-area").clientWidth - 2;
  return Math.max(64, Math.min(640, width || 640));
}

/** The board as drawn last: `box(i)`, cell (or vertex) `i`'s square on
 *  the canvas in canvas pixels, for the marks and for finding what a click
 *  hit; `vertices`, the boxes of a graph's vertices (empty for a grid). */
export const boardView = { box: () => ({ x: 0, y: 0, size: 1 }), vertices: [] };

export function drawBoard() {
  const canvas = $("board");
  let g;
  if (state.graph && !state.graph.pos) {
    waitingForLayout(canvas);
    return;
  }
  if (state.graph) {
    const drawn = drawGraph(canvas, state.board, state.graph, boardRoom());
    g = drawn.g;
    boardView.vertices = drawn.boxes;
    boardView.box = (i) => drawn.boxes[i];
  } else {
    const size = cellSize(state.rows, state.cols, boardRoom());
    g = drawGrid(canvas, state.board, state.rows, state.cols, size);
    boardView.vertices = [];
    boardView.box = (i) => ({ x: (i % state.cols) * size, y: Math.floor(i / state.cols) * size, size });
  }
  const box = boardView.box;
  const s = state.solution;
  if (s && !s.shown) {
    // Hidden (a hint or a step asked for it): only the hinted press.
    if (state.hint >= 0 && left(s, state.hint) > 0) {
      if (state.states === 2) mark(g, box(state.hint), "#e0a100");
      else badge(g, box(state.hint), "#e0a100", left(s, state.hint));
    }
  } else if (s && state.states === 2) {
    for (const i of s.presses.keys()) if (left(s, i) === 0) mark(g, box(i), "#777");
    for (const i of remaining(s)) mark(g, box(i), "#e0a100");
  } else if (s) {
    // What is left to press, as a number; a cell whose presses are all
    // made shows how many it took, in the darker grey of two states (amber
    // and a light grey are one grey in print).
    for (const [i, n] of s.presses) if (left(s, i) === 0) badge(g, box(i), "#777", n, false);
    for (const i of remaining(s)) badge(g, box(i), "#e0a100", left(s, i));
  }
  // Light chasing: the next step's presses, while the board is as the
  // chase left it.
  const chase = state.chase;
  if (!s && chase && chase.expect && chase.expect.every((v, i) => v === state.board[i])) {
    for (const i of chase.marks) mark(g, box(i), "#e0a100");
  }
  if (state.states === 2) for (const i of state.proof || []) proofMark(g, box(i));
  else for (const i of state.proof || []) proofWeight(g, box(i), state.proofWeights[i]);
  if (state.hint >= 0) outline(g, box(state.hint), true);
  if (document.activeElement === canvas && box(state.cursor).size >= 4) outline(g, box(state.cursor), false);
}

/** A graph whose layout has not come from the server yet: a word in
 *  place of the drawing, and no vertex to hit. */
function waitingForLayout(canvas) {
  canvas.width = boardRoom();
  canvas.height = 48;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "#111";
  g.font = "16px sans-serif";
  g.textBaseline = "middle";
  g.fillText("Placing the vertices (the server lays the graph out)…", 8, 24);
  boardView.vertices = [];
  boardView.box = () => ({ x: 0, y: 0, size: 0 });
}

/** The cell (or vertex) under the point (`x`, `y`) of the board canvas,
 *  in canvas pixels, or -1. A vertex is hit within a few pixels of its
 *  disc, so that small ones can still be tapped. */
export function cellUnder(x, y) {
  if (!state.graph) {
    const { size } = boardView.box(0);
    const r = Math.floor(y / size), c = Math.floor(x / size);
    return r < 0 || r >= state.rows || c < 0 || c >= state.cols ? -1 : r * state.cols + c;
  }
  let best = -1, near = Infinity;
  boardView.vertices.forEach((b, i) => {
    const d = Math.hypot(b.x + b.size / 2 - x, b.y + b.size / 2 - y);
    if (d < near) [best, near] = [i, d];
  });
  return best >= 0 && near <= Math.max(12, boardView.vertices[best].size * 0.75) ? best : -1;
}

/** Called after every change: redraw, and keep the URL in step. */
export function changed() {
  drawBoard();
  showMoves();
  saveToUrl();
}

/** The move counter (play mode) and the win banner. */
function showMoves() {
  const play = state.mode === "play";
  $("moves").hidden = !play && state.moves === 0;
  $("moves").textContent = `Moves: ${state.moves}`;
  const win = won() && state.moves > 0;
  $("win").hidden = !win;
  if (win) $("win").textContent = `Solved in ${state.moves} ${plural(state.moves, "move")}: ${allOf(uniformState())}!`;
}
