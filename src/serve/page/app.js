// The explorer page: plain DOM and canvas, no framework, no build step.
// The board lives here; the server solves and analyses (the JSON API that
// `lightsout serve` documents in docs/serve.md).

const MAX_SIDE = 256;
// States a cell takes (Z_K): a press adds 1 to each cell it reaches, mod
// `state.states`. Two states are the classic game, drawn in black and
// white and spoken of as colours; from 3 to MAX_STATES cells show their
// state's number on a colour ramp (`stateColour`), and the API is asked
// with `states`.
const MIN_STATES = 2, MAX_STATES = 255;
const $ = (id) => document.getElementById(id);

// ---- State, and the URL that holds it -------------------------------------

const state = {
  rows: 5,
  cols: 5,
  rule: "plus",
  mask: "00000/00100/01110/00100/00000",
  torus: false,
  // K: every cell is 0..K-1. The target is "either" (any uniform board)
  // or, for K = 2, "white" or "black", for K > 2 a state number as text.
  states: 2,
  target: "either",
  mode: "set",
  board: new Uint8Array(25),
  cursor: 0,
  // The last solution of the board as it was when solved: `presses`, a
  // Map of cell -> times to press it; `pressed`, a Map of cell -> times it
  // was pressed since (mod K); the target and whether the server
  // proved it minimal. Presses commute, so what is left to press from the
  // board now is `presses - pressed` cell by cell, whatever order the
  // presses came in, strays included.
  solution: null,
  // What can be taken back (Back, Ctrl+Z), latest last: {kind: "press",
  // cell}, {kind: "set", cell, before} or {kind: "board", before, moves}.
  undo: [],
  // Presses made on the board since it was last drawn, filled or resized.
  moves: 0,
  // When the board cannot reach the target: the cells of a pattern that
  // proves it (from /api/check), and for K > 2 the weight of every cell.
  proof: null,
  proofWeights: null,
  hint: -1,
};

const RULES = {
  plus: [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]],
  neighbours: [[-1, 0], [1, 0], [0, -1], [0, 1]],
  king: [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 0], [0, 1], [1, -1], [1, 0], [1, 1]],
};

/** The offsets a press flips, for the current rule. */
function offsets() {
  if (state.rule !== "mask") return RULES[state.rule];
  const rows = state.mask.split("/");
  const h = (rows.length - 1) / 2, w = (rows[0].length - 1) / 2;
  const out = [];
  rows.forEach((row, r) => [...row].forEach((bit, c) => { if (bit === "1") out.push([r - h, c - w]); }));
  return out;
}

/** The rule as the API spells it. */
function ruleName() {
  return state.rule === "mask" ? state.mask : state.rule;
}

/** Bits a cell needs in the URL: 1 for two states, 2 for 3 and 4, … */
function bitsPerCell(states) {
  return Math.max(1, Math.ceil(Math.log2(states)));
}

/** Board cells, row-major, `bitsPerCell` bits each, least significant
 *  first, packed into bytes, as base64url. Two states give the links of
 *  before: 8 cells a byte. */
function encodeBoard(cells, states = state.states) {
  const width = bitsPerCell(states);
  const bytes = new Uint8Array(Math.ceil((cells.length * width) / 8));
  cells.forEach((v, i) => {
    for (let k = 0; k < width; k++) {
      const bit = i * width + k;
      if ((v >> k) & 1) bytes[bit >> 3] |= 1 << (bit & 7);
    }
  });
  let text = "";
  bytes.forEach((b) => { text += String.fromCharCode(b); });
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeBoard(text, count, states = state.states) {
  const width = bitsPerCell(states);
  const cells = new Uint8Array(count);
  try {
    const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    for (let i = 0; i < count && ((i * width) >> 3) < raw.length; i++) {
      let v = 0;
      for (let k = 0; k < width; k++) {
        const bit = i * width + k;
        v |= (((raw.charCodeAt(bit >> 3) || 0) >> (bit & 7)) & 1) << k;
      }
      // A hand-edited link may hold a value past the last state.
      cells[i] = v % states;
    }
  } catch { /* a damaged link gives a white board */ }
  return cells;
}

function clampStates(value, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(MAX_STATES, Math.max(MIN_STATES, n)) : fallback;
}

/** Whether `target` means something with `states` states. */
function validTarget(target, states) {
  if (target === "either") return true;
  if (states === 2) return target === "white" || target === "black";
  return /^[0-9]+$/.test(target) && Number(target) < states;
}

/** The target carried over to another number of states: white is state
 *  0 and black state 1, and a state past the new last is "either". */
function convertTarget(target, states) {
  const number = { white: "0", black: "1" }[target] ?? target;
  const carried = states === 2 ? ({ "0": "white", "1": "black" }[number] ?? target) : number;
  return validTarget(carried, states) ? carried : "either";
}

function clampSide(value, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(MAX_SIDE, Math.max(1, n)) : fallback;
}

function saveToUrl() {
  const p = new URLSearchParams({
    rows: state.rows, cols: state.cols, rule: state.rule, torus: state.torus ? 1 : 0,
    states: state.states, target: state.target, mode: state.mode, board: encodeBoard(state.board),
  });
  if (state.rule === "mask") p.set("mask", state.mask);
  history.replaceState(null, "", "#" + p.toString());
}

function loadFromUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.rows = clampSide(p.get("rows"), 5);
  state.cols = clampSide(p.get("cols"), 5);
  state.rule = ["plus", "neighbours", "king", "mask"].includes(p.get("rule")) ? p.get("rule") : "plus";
  if (/^[01]{5}(\/[01]{5}){4}$/.test(p.get("mask") || "")) state.mask = p.get("mask");
  state.torus = p.get("torus") === "1";
  state.states = clampStates(p.get("states"), 2);
  state.target = validTarget(p.get("target") || "", state.states) ? p.get("target") : "either";
  state.mode = p.get("mode") === "play" ? "play" : "set";
  state.board = decodeBoard(p.get("board") || "", state.rows * state.cols);
  state.cursor = 0;
  state.undo = [];
  state.moves = 0;
  forgetSolution();
}

// ---- The puzzle, played here ------------------------------------------------

/** Cells flipped by pressing cell `i`: each once, even on a narrow torus. */
function flippedBy(i) {
  const r = Math.floor(i / state.cols), c = i % state.cols;
  const cells = new Set();
  for (const [dr, dc] of offsets()) {
    let rr = r + dr, cc = c + dc;
    if (state.torus) {
      rr = ((rr % state.rows) + state.rows) % state.rows;
      cc = ((cc % state.cols) + state.cols) % state.cols;
    } else if (rr < 0 || rr >= state.rows || cc < 0 || cc >= state.cols) {
      continue;
    }
    cells.add(rr * state.cols + cc);
  }
  return cells;
}

/** Presses cell `i` `times` times (K - 1 times takes a press back). */
function press(i, times = 1) {
  const k = state.states;
  for (const j of flippedBy(i)) state.board[j] = (state.board[j] + times) % k;
  const s = state.solution;
  if (s) s.pressed.set(i, ((s.pressed.get(i) || 0) + times) % k);
}

/** Sets cell `i` to `value`: drawing, not playing. */
function setCell(i, value) {
  state.board[i] = value % state.states;
}

/** A state in words: a colour for two states, else its number. */
function stateName(v) {
  return state.states === 2 ? (v ? "black" : "white") : `${v}`;
}

/** A uniform board of state `v` (or target name) in words: "all white",
 *  "all 2s". */
function allOf(v) {
  if (state.states === 2) return `all ${typeof v === "string" ? v : stateName(v)}`;
  return `all ${v}s`;
}

function forgetSolution() {
  state.solution = null;
  state.proof = null;
  state.proofWeights = null;
  state.hint = -1;
  $("presses").textContent = "";
  showLegend();
}

/** Times cell `i` is still to be pressed to finish the solution `s`. */
function left(s, i) {
  const k = state.states;
  return (((s.presses.get(i) || 0) - (s.pressed.get(i) || 0)) % k + k) % k;
}

/** Whether cell `i` was pressed past the solution `s` (a stray press):
 *  more is left to press there than the solution asked for. */
function stray(s, i) {
  return left(s, i) > (s.presses.get(i) || 0);
}

/** The cells still to press for `s`, in reading order. */
function remaining(s) {
  const cells = new Set([...s.presses.keys(), ...s.pressed.keys()]);
  return [...cells].filter((i) => left(s, i) > 0).sort((a, b) => a - b);
}

/** Presses of the solution made: a cell pressed n times is n steps. */
function stepsDone(s) {
  return [...s.presses].reduce((done, [i, n]) => done + n - left(s, i), 0);
}

/** Presses in the solution `s`, all steps counted. */
function stepsAll(s) {
  return [...s.presses.values()].reduce((a, n) => a + n, 0);
}

/** Remembers a change so that Back and Ctrl+Z can take it back. */
function remember(change) {
  state.undo.push(change);
  // Enough for any game by hand; old changes of a long session drop off.
  if (state.undo.length > 10000) state.undo.shift();
}

/** A new board (drawn, filled, resized): its presses start from 0. */
function newBoard(before) {
  remember({ kind: "board", before, moves: state.moves });
  state.moves = 0;
}

function cellName(i) {
  return `row ${Math.floor(i / state.cols) + 1}, column ${(i % state.cols) + 1}`;
}

/** A click (or Space) on cell `i`: set it, or press it. */
function clickCell(i) {
  state.cursor = i;
  if (state.mode === "set") {
    remember({ kind: "set", cell: i, before: state.board[i], moves: state.moves });
    setCell(i, state.board[i] + 1);
    state.moves = 0;
    forgetSolution();
    say(`Set ${cellName(i)} to ${stateName(state.board[i])}.`);
  } else {
    // A press keeps the solution: what is left to press is worked out
    // from the presses made, in any order (a stray one is pressed again).
    makeMove(i);
    say(`Pressed ${cellName(i)}.${progressText()}`);
  }
  changed();
}

/** A press made by the player (a click, a key, a step of the solution). */
function makeMove(i) {
  press(i);
  remember({ kind: "press", cell: i });
  state.moves += 1;
  state.hint = -1;
}

/** The state the board shows all over, or null. */
function uniformState() {
  const first = state.board[0];
  return state.board.every((v) => v === first) ? first : null;
}

/** Whether the board now shows what was asked for. */
function won() {
  const v = uniformState();
  return v !== null && (state.target === "either" || state.target === stateKey(v));
}

/** A state as the target select names it. */
function stateKey(v) {
  return state.states === 2 ? stateName(v) : `${v}`;
}

function solvedText() {
  const v = uniformState();
  return v !== null ? ` The board is ${allOf(v)}.` : "";
}

/** After a press: the win, or (with `count`) how much of the solution is
 *  left. */
function progressText(count = true) {
  if (won() && state.moves > 0) {
    return ` Solved in ${state.moves} ${plural(state.moves, "move")}!${solvedText()}`;
  }
  const s = state.solution;
  if (!s || !count) return solvedText();
  const todo = remaining(s).reduce((n, i) => n + left(s, i), 0);
  return ` ${todo} ${plural(todo, "press", "presses")} of the solution left.${solvedText()}`;
}

function plural(n, one, many = one + "s") {
  return n === 1 ? one : many;
}

/** Takes back the last change: a press, a set cell or a new board. */
function undo() {
  const change = state.undo.pop();
  if (!change) {
    say("Nothing to take back.");
    return;
  }
  state.hint = -1;
  if (change.kind === "press") {
    press(change.cell, state.states - 1);
    state.moves -= 1;
    state.cursor = change.cell;
    say(`Took back the press of ${cellName(change.cell)} (${state.moves} ${plural(state.moves, "move")}).` +
      progressText());
  } else if (change.kind === "set") {
    setCell(change.cell, change.before);
    state.moves = change.moves;
    state.cursor = change.cell;
    forgetSolution();
    say(`Took back: ${cellName(change.cell)} is ${stateName(state.board[change.cell])} again.`);
  } else {
    state.board = change.before;
    state.moves = change.moves;
    forgetSolution();
    say("Took back: the board as it was.");
  }
  changed();
}

// ---- Drawing ----------------------------------------------------------------

function cellSize(rows, cols, room) {
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
function stateColour(v, states) {
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
function drawGrid(canvas, cells, rows, cols, size, states = state.states) {
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

/** A round mark with a black and a white edge: readable on either colour.
 *  Cells too small for rings get a square: the fill in a black frame. */
function mark(g, i, size, fill) {
  if (size < 6) {
    const left = (i % state.cols) * size, top = Math.floor(i / state.cols) * size;
    g.fillStyle = size < 4 ? fill : "#111";
    g.fillRect(left, top, size, size);
    g.fillStyle = fill;
    if (size >= 4) g.fillRect(left + 1, top + 1, size - 2, size - 2);
    return;
  }
  const x = (i % state.cols) * size + size / 2, y = Math.floor(i / state.cols) * size + size / 2;
  const radius = Math.max(1, size * 0.3);
  g.beginPath();
  g.arc(x, y, radius, 0, 2 * Math.PI);
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = Math.max(1, size / 14);
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
function badge(g, i, size, fill, count, light = true) {
  if (size < 20) {
    mark(g, i, size, fill);
    return;
  }
  const x = (i % state.cols) * size + size * 0.8, y = Math.floor(i / state.cols) * size + size * 0.8;
  const radius = size * 0.17;
  g.beginPath();
  g.arc(x, y, radius, 0, 2 * Math.PI);
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = Math.max(1, size / 24);
  g.strokeStyle = "#fff";
  g.stroke();
  g.beginPath();
  g.arc(x, y, radius + g.lineWidth, 0, 2 * Math.PI);
  g.strokeStyle = "#111";
  g.stroke();
  label(g, `${count}`, x, y, Math.floor(size * 0.26), radius * 1.8, light);
}

/** A cell of the proof for more than two states: its weight in a white
 *  box with a black frame, in the cell's top left corner. */
function proofWeight(g, i, size, weight) {
  if (size < 20) {
    proofMark(g, i, size);
    return;
  }
  const x = (i % state.cols) * size, y = Math.floor(i / state.cols) * size;
  const side = Math.round(size * 0.34), inset = Math.max(2, Math.round(size * 0.04));
  g.fillStyle = "#111";
  g.fillRect(x + inset, y + inset, side, side);
  g.fillStyle = "#fff";
  g.fillRect(x + inset + 2, y + inset + 2, side - 4, side - 4);
  label(g, `${weight}`, x + inset + side / 2, y + inset + side / 2, Math.floor(side * 0.7), side - 4, true);
}

/** A small square, white in a black frame: a cell of the proof that a
 *  board cannot reach its target. */
function proofMark(g, i, size) {
  const x = (i % state.cols) * size, y = Math.floor(i / state.cols) * size;
  const side = Math.max(1, Math.round(size * 0.5)), inset = (size - side) / 2;
  g.fillStyle = "#111";
  g.fillRect(x + inset - 1, y + inset - 1, side + 2, side + 2);
  g.fillStyle = "#fff";
  g.fillRect(x + inset + 1, y + inset + 1, side - 2, side - 2);
}

/** A square outline around cell `i`: black inside white for the cursor;
 *  for the hint, thick black and white dashes along the cell's edge. */
function outline(g, i, size, dashed) {
  const x = (i % state.cols) * size, y = Math.floor(i / state.cols) * size;
  const w = Math.max(2, Math.floor(size / (dashed ? 6 : 8)));
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

/** Room for the board: its area's width on a narrow screen, at most 640. */
function boardRoom() {
  const width = $("board-area").clientWidth - 2;
  return Math.max(64, Math.min(640, width || 640));
}

function drawBoard() {
  const canvas = $("board");
  const size = cellSize(state.rows, state.cols, boardRoom());
  const g = drawGrid(canvas, state.board, state.rows, state.cols, size);
  const s = state.solution;
  if (s && state.states === 2) {
    for (const i of s.presses.keys()) if (left(s, i) === 0) mark(g, i, size, "#777");
    for (const i of remaining(s)) mark(g, i, size, "#e0a100");
  } else if (s) {
    // What is left to press, as a number; a cell whose presses are all
    // made shows how many it took, in the darker grey of two states (amber
    // and a light grey are one grey in print).
    for (const [i, n] of s.presses) if (left(s, i) === 0) badge(g, i, size, "#777", n, false);
    for (const i of remaining(s)) badge(g, i, size, "#e0a100", left(s, i));
  }
  if (state.states === 2) for (const i of state.proof || []) proofMark(g, i, size);
  else for (const i of state.proof || []) proofWeight(g, i, size, state.proofWeights[i]);
  if (state.hint >= 0) outline(g, state.hint, size, true);
  if (document.activeElement === canvas && size >= 4) outline(g, state.cursor, size, false);
}

/** Called after every change: redraw, and keep the URL in step. */
function changed() {
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

/** The legend's press entry says what the drawn presses are. */
function showLegend() {
  const s = state.solution;
  $("legend-press").textContent = !s ? "press of a solution"
    : s.proven ? "press (minimal solution)" : "press (a solution, not proven minimal)";
}

// ---- Talking to the server ---------------------------------------------------

let inFlight = new Set();

/** POSTs `body` to the API; aborted with the Cancel button. */
async function api(path, body) {
  const controller = new AbortController();
  inFlight.add(controller);
  const started = performance.now();
  const busy = $("busy");
  const tick = setInterval(() => {
    busy.hidden = false;
    $("elapsed").textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 250);
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
    return answer;
  } finally {
    clearInterval(tick);
    inFlight.delete(controller);
    if (inFlight.size === 0) busy.hidden = true;
  }
}

function cancelAll() {
  for (const controller of inFlight) controller.abort();
}

function say(text) {
  $("status").textContent = text;
}

function failed(error) {
  say(error.name === "AbortError" ? "Cancelled." : `Error: ${error.message}`);
}

function boardRows(bits = state.board) {
  const rows = [];
  for (let r = 0; r < state.rows; r++) {
    let row = "";
    for (let c = 0; c < state.cols; c++) row += bits[r * state.cols + c] ? "b" : "w";
    rows.push(row);
  }
  return rows;
}

/** The board as the API takes it: rows of b and w for two states (the
 *  request of before), else lists of state numbers. */
function boardBody(cells = state.board) {
  if (state.states === 2) return boardRows(cells);
  const rows = [];
  for (let r = 0; r < state.rows; r++) rows.push([...cells.subarray(r * state.cols, (r + 1) * state.cols)]);
  return rows;
}

/** A grid of numbers from the API, row-major: rows of digits (K <= 10),
 *  rows of `x` and `.` (two states), or lists of numbers. */
function gridNumbers(lines) {
  return Uint8Array.from(lines.flatMap((row) =>
    typeof row === "string" ? [...row].map((ch) => (ch === "x" ? 1 : ch === "." ? 0 : Number(ch))) : row));
}

/** What the API calls the target: two states name colours, more ask for
 *  "any" or a state's number. */
function targetBody() {
  if (state.states === 2) return state.target;
  return state.target === "either" ? "any" : Number(state.target);
}

/** The common fields of a request about this board's puzzle. */
function puzzleBody() {
  const body = { rule: ruleName(), torus: state.torus };
  if (state.states !== 2) body.states = state.states;
  return body;
}

/** Presses listed in words under the board (all are drawn). */
const LISTED_PRESSES = 100;

/** Asks for the fewest presses from the board as it is now. */
async function solve() {
  const answer = await api("/api/solve", { board: boardBody(), target: targetBody(), ...puzzleBody() });
  // Two states answer by colour, more with a list of targets.
  const name = state.states === 2
    ? (state.target === "either" ? answer.best.target : state.target)
    : (state.target === "either" ? answer.best.target : Number(state.target));
  const entry = name === null || name === undefined ? null
    : state.states === 2 ? answer[name] : answer.targets.find((t) => t.target === name);
  if (!entry || !entry.solvable) {
    forgetSolution();
    await explainImpossible(answer);
    changed();
    return null;
  }
  const counts = gridNumbers(entry.solution);
  const presses = [];
  counts.forEach((n, i) => { if (n) presses.push(i); });
  state.solution = {
    presses: new Map(presses.map((i) => [i, counts[i]])), pressed: new Map(), target: name, proven: entry.proven_minimal,
  };
  state.hint = -1;
  showLegend();
  const proof = entry.proven_minimal ? "proven minimal" : "not proven minimal";
  say(`${entry.presses} presses to ${allOf(name)} (${proof}).`);
  // A cell pressed n times is listed as r1c2×n.
  const listed = presses.slice(0, LISTED_PRESSES)
    .map((i) => `r${Math.floor(i / state.cols) + 1}c${(i % state.cols) + 1}${counts[i] > 1 ? `×${counts[i]}` : ""}`);
  if (presses.length > LISTED_PRESSES) listed.push(`… and ${presses.length - LISTED_PRESSES} more`);
  $("presses").textContent = presses.length ? "Press: " + listed.join(" ") : "No presses needed.";
  changed();
  return state.solution;
}

/** Says why no presses reach the target, and marks the proof from
 *  /api/check: a pattern that every press meets evenly while the board
 *  does not. */
async function explainImpossible(answer) {
  if (state.states === 2) {
    const goal = state.target === "either" ? "all white or all black" : `all ${state.target}`;
    // The proof: a pattern that every press meets in an even number of
    // cells, and the cells to flip in an odd number.
    const colour = state.target === "black" ? "black" : "white";
    const check = await api("/api/check", { board: boardRows(), target: colour, ...puzzleBody() });
    state.proof = gridBits(check[colour].obstruction).reduce((cells, bit, i) => (bit ? [...cells, i] : cells), []);
    say(`Impossible: no presses make this board ${goal} (nullity ${answer.nullity}). ` +
      `The squares mark the proof: every press flips an even number of them, but an odd number must change to reach all ${colour}.`);
    return;
  }
  const k = state.states;
  const goal = state.target === "either" ? "uniform (any state)" : allOf(state.target);
  // The proof is a weighting of the cells: every press adds a multiple of
  // K to the weighted sum of the board, but reaching the target changes it
  // by something else. For "any", the weighting for all 0s.
  const target = state.target === "either" ? 0 : Number(state.target);
  const check = await api("/api/check", { board: boardBody(), target, ...puzzleBody() });
  const found = check.targets.find((t) => t.target === target);
  if (found && found.obstruction) {
    state.proofWeights = gridNumbers(found.obstruction);
    state.proof = [...state.proofWeights.keys()].filter((i) => state.proofWeights[i]);
  }
  const size = `a quiet space of ${answer.kernel_size} press patterns`;
  say(`Impossible: no presses make this board ${goal} (${size}). ` +
    `The boxed numbers are the proof: weigh each cell by its number; every press changes the weighted sum ` +
    `by a multiple of ${k}, but reaching ${allOf(target)} would change it by something else.`);
}

async function hint() {
  const s = state.solution || (await solve());
  if (!s) return;
  const [next] = remaining(s);
  if (next === undefined) {
    say(`Solved: the board is ${allOf(s.target)}.`);
    return;
  }
  state.hint = next;
  state.cursor = next;
  const kind = s.proven ? "a minimal solution" : "a solution, not proven minimal";
  say(`Hint: press ${cellName(next)} (one press of ${kind}).`);
  changed();
}

/** Presses the next press of the solution (a move like any other). */
async function step() {
  const s = state.solution || (await solve());
  if (!s) return;
  const [next] = remaining(s);
  if (next === undefined) {
    say(`Nothing left to press.${solvedText()}`);
    return;
  }
  makeMove(next);
  state.cursor = next;
  // Counted as steps of the solution while no stray press is in the way.
  const strays = [...s.pressed.keys()].some((i) => stray(s, i));
  const where = strays ? `Pressed ${cellName(next)}.` : `Step ${stepsDone(s)} of ${stepsAll(s)}.`;
  say(where + progressText(strays));
  changed();
}

// ---- Quiet patterns -----------------------------------------------------------

const SHOWN_PATTERNS = 64;
let quietPatterns = [];

function gridBits(lines) {
  return Uint8Array.from(lines.join("").split(""), (ch) => (ch === "x" ? 1 : 0));
}
/** A kernel's size in words: the number, or a power of two when long. */
function kernelText(a) {
  return a.kernel_size.length <= 12 ? a.kernel_size : `about 2^${a.kernel_size_log2.toFixed(1)}`;
}

/** What the analysis says of this size, rule and number of states. */
function analysisText(a) {
  if (!a.states || a.states === 2) {
    const d = a.nullity;
    let text = `${a.rows}×${a.cols} ${a.topology}, rule ${a.rule}: rank ${a.rank}, nullity ${d}. `;
    text += d === 0
      ? "Every board can be cleared, in exactly one way."
      : `1 board in 2^${d} can be cleared. Lightest quiet pattern: ${a.lightest_quiet_pattern.presses} presses.`;
    if (a.gcd) text += ` gcd polynomial: ${a.gcd}.`;
    return text;
  }
  // Rank and nullity mean something over a field: K prime.
  const rank = a.rank === null ? " (no rank or nullity: K is not prime)" : `, rank ${a.rank}, nullity ${a.nullity}`;
  let text = `${a.rows}×${a.cols} ${a.topology}, rule ${a.rule}, ${a.states} states: ` +
    `${kernelText(a)} quiet press ${plural(Number(a.kernel_size), "pattern")}${rank}. `;
  text += a.kernel_size === "1"
    ? "Every board can be cleared, in exactly one way."
    : `1 board in ${kernelText(a)} can be cleared, in ${kernelText(a)} ways. ` +
      `Lightest quiet pattern: ${a.lightest_quiet_pattern.presses} presses.`;
  return text;
}

/** The explanation above the patterns, in the words of two states or K. */
function quietIntro(states) {
  $("quiet-intro").hidden = states !== 2;
  $("quiet-intro-k").hidden = states === 2;
}

async function analyze() {
  const box = $("quiet");
  // Nothing of the last size stays on show while the next is computed.
  $("analysis").textContent = `Analysing ${state.rows}×${state.cols}…`;
  box.replaceChildren();
  try {
    const a = await api("/api/analyze", { rows: state.rows, cols: state.cols, ...puzzleBody() });
    const states = a.states || 2;
    // Two states answer with the patterns; more with {order, pattern}.
    quietPatterns = a.quiet_patterns.map((q) => (states === 2 ? { order: 2, pattern: q } : q));
    $("analysis").textContent = analysisText(a);
    quietIntro(states);
    box.replaceChildren();
    quietPatterns.slice(0, SHOWN_PATTERNS).forEach((q, k) => {
      const button = document.createElement("button");
      button.type = "button";
      const cells = gridNumbers(q.pattern);
      const weight = cells.reduce((n, v) => n + v, 0);
      const order = states === 2 ? "" : `, order ${q.order}`;
      button.setAttribute("aria-label", `Quiet pattern ${k + 1}${order}, ${weight} presses: open`);
      const canvas = document.createElement("canvas");
      drawGrid(canvas, cells, a.rows, a.cols, cellSize(a.rows, a.cols, 96), states);
      button.append(canvas, `${k + 1}${order}: ${weight} presses`);
      button.addEventListener("click", () => openPattern(k, a));
      box.append(button);
    });
    if (quietPatterns.length > SHOWN_PATTERNS) {
      box.append(`… and ${quietPatterns.length - SHOWN_PATTERNS} more`);
    }
  } catch (error) {
    $("analysis").textContent = error.name === "AbortError" ? "Cancelled." : `Error: ${error.message}`;
    box.replaceChildren();
  }
}

function openPattern(k, a) {
  const q = quietPatterns[k], states = a.states || 2;
  const cells = gridNumbers(q.pattern);
  const weight = cells.reduce((n, v) => n + v, 0);
  $("pattern-title").textContent = states === 2
    ? `Quiet pattern ${k + 1} of ${a.rows}×${a.cols}: ${weight} presses (black = press)`
    : `Quiet pattern ${k + 1} of ${a.rows}×${a.cols}, ${states} states: order ${q.order}, ${weight} presses ` +
      "(each cell's number: how many times to press it)";
  drawGrid($("pattern-canvas"), cells, a.rows, a.cols, cellSize(a.rows, a.cols, 480), states);
  $("pattern-dialog").showModal();
}

let analyzeTimer = 0;
function analyzeSoon() {
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(analyze, 300);
}

// ---- The nullity map ----------------------------------------------------------

// `grid` holds the nullity of each size for two states, log2 of the
// kernel's size for more (`states`, the K of the map as drawn).
const heat = { r0: 1, c0: 1, rows: 0, cols: 0, grid: [], size: 1, cursor: 0, max: 0, states: 2, nullities: [] };
// Room for the axis labels, left and top of the squares.
const HEAT_LEFT = 34, HEAT_TOP = 18;

function parseRange(text) {
  const [a, b = a] = text.split("..").map((t) => Number.parseInt(t, 10));
  return [a, b];
}

async function drawHeat() {
  const [r0, r1] = parseRange($("heat-rows").value);
  const [c0, c1] = parseRange($("heat-cols").value);
  $("heat-info").textContent = "Computing the map…";
  try {
    const states = state.states;
    const entries = await api("/api/table", { rows: $("heat-rows").value, cols: $("heat-cols").value, ...puzzleBody() });
    Object.assign(heat, { r0, c0, rows: r1 - r0 + 1, cols: c1 - c0 + 1, cursor: 0, states });
    heat.grid = entries.map((e) => (states === 2 ? e.nullity : e.kernel_size_log2));
    heat.nullities = entries.map((e) => e.nullity);
    heat.max = Math.max(1, ...heat.grid);
    paintHeat();
    const where = `${r0}..${r1} × ${c0}..${c1}, rule ${ruleName()}${state.torus ? ", torus" : ""}`;
    $("heat-info").textContent = states === 2
      ? `${where}: nullity 0 to ${heat.max}.`
      : `${where}, ${states} states: log2 of the number of quiet patterns, 0 to ${heat.max.toFixed(1)}.`;
  } catch (error) {
    $("heat-info").textContent = error.name === "AbortError" ? "Cancelled." : `Error: ${error.message}`;
  }
}

/** A step between axis labels that leaves them room: 1, 2, 5, 10, 20, … */
function labelStep(count, size) {
  const steps = [1, 2, 5, 10, 20, 25, 50, 100];
  return steps.find((s) => s * size >= 28) || 100;
}

function paintHeat() {
  const canvas = $("heatmap");
  heat.size = Math.max(2, Math.min(24, Math.floor(720 / Math.max(heat.rows, heat.cols))));
  canvas.width = HEAT_LEFT + heat.cols * heat.size + 2;
  canvas.height = HEAT_TOP + heat.rows * heat.size + 2;
  const g = canvas.getContext("2d");
  g.fillStyle = "#f4f4f2";
  g.fillRect(0, 0, canvas.width, canvas.height);
  const at = (i) => [HEAT_LEFT + (i % heat.cols) * heat.size, HEAT_TOP + Math.floor(i / heat.cols) * heat.size];
  heat.grid.forEach((n, i) => {
    // Grey by log(1 + nullity) (or of log2 of the kernel's size): white
    // for 0, black for the most.
    const shade = Math.round(255 * (1 - Math.log1p(n) / Math.log1p(heat.max)));
    g.fillStyle = `rgb(${shade},${shade},${shade})`;
    const [x, y] = at(i);
    g.fillRect(x, y, heat.size, heat.size);
  });
  // Axis labels: columns along the top, rows down the left.
  g.fillStyle = "#111";
  g.font = "11px system-ui, sans-serif";
  const step = labelStep(Math.max(heat.rows, heat.cols), heat.size);
  g.textAlign = "center";
  for (let c = heat.c0; c < heat.c0 + heat.cols; c++) {
    if (c % step === 0 || c === heat.c0) g.fillText(c, HEAT_LEFT + (c - heat.c0 + 0.5) * heat.size, HEAT_TOP - 5);
  }
  g.textAlign = "right";
  for (let r = heat.r0; r < heat.r0 + heat.rows; r++) {
    if (r % step === 0 || r === heat.r0) g.fillText(r, HEAT_LEFT - 4, HEAT_TOP + (r - heat.r0 + 0.5) * heat.size + 4);
  }
  // The board's size, and the keyboard's cursor: black and white squares.
  const frame = (i, dashed) => {
    const [x, y] = at(i);
    g.lineWidth = 2;
    g.setLineDash([]);
    g.strokeStyle = "#fff";
    g.strokeRect(x - 1, y - 1, heat.size + 2, heat.size + 2);
    if (dashed) g.setLineDash([2, 2]);
    g.strokeStyle = "#111";
    g.strokeRect(x - 3, y - 3, heat.size + 6, heat.size + 6);
    g.setLineDash([]);
  };
  const r = state.rows - heat.r0, c = state.cols - heat.c0;
  if (r >= 0 && r < heat.rows && c >= 0 && c < heat.cols) frame(r * heat.cols + c, false);
  if (document.activeElement === canvas) frame(heat.cursor, true);
}

function heatSize(i) {
  return [heat.r0 + Math.floor(i / heat.cols), heat.c0 + (i % heat.cols)];
}

function describeHeat(i) {
  const [r, c] = heatSize(i);
  if (heat.states === 2) {
    $("heat-info").textContent = `${r}×${c}: nullity ${heat.grid[i]}.`;
    return;
  }
  const n = heat.nullities[i];
  const nullity = n === null || n === undefined ? "" : `, nullity ${n}`;
  $("heat-info").textContent = `${r}×${c}, ${heat.states} states: 2^${heat.grid[i].toFixed(2)} quiet patterns${nullity}.`;
}

function openSize(i) {
  const [r, c] = heatSize(i);
  setSize(r, c);
  paintHeat();
  $("board").focus();
}

// ---- Wiring -------------------------------------------------------------------

function setSize(rows, cols, note = "") {
  state.rows = rows;
  state.cols = cols;
  state.board = new Uint8Array(rows * cols);
  state.cursor = 0;
  // Changes to another size cannot be taken back cell by cell.
  state.undo = [];
  state.moves = 0;
  forgetSolution();
  showSettings();
  say(state.states === 2 ? `${note}A white ${rows}×${cols} board.` : `${note}A ${rows}×${cols} board, all 0s.`);
  changed();
  analyzeSoon();
}

function showSettings() {
  $("rows").value = state.rows;
  $("cols").value = state.cols;
  $("rule").value = state.rule;
  $("torus").checked = state.torus;
  $("states").value = state.states;
  targetOptions();
  $("target").value = state.target;
  $("clear").textContent = state.states === 2 ? "All white" : "All 0s";
  showRamp();
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === state.mode;
  $("mask").hidden = state.rule !== "mask";
  const bits = state.mask.replace(/\//g, "");
  $("mask").querySelectorAll("button").forEach((b, k) => b.setAttribute("aria-pressed", bits[k] === "1"));
}

/** The key to the colours of K > 2 under the board: each state (the
 *  first and last eight of many) as a swatch with its number. */
function showRamp() {
  const box = $("ramp"), k = state.states;
  box.hidden = k === 2;
  if (k === 2 || box.dataset.states === `${k}`) return;
  box.dataset.states = `${k}`;
  const shown = k <= 16 ? [...Array(k).keys()] : [0, 1, 2, 3, 4, 5, 6, 7, -1, ...Array.from({ length: 8 }, (_, j) => k - 8 + j)];
  box.replaceChildren("States:", ...shown.map((v) => {
    if (v < 0) return "…";
    const swatch = document.createElement("span");
    const colour = stateColour(v, k);
    swatch.className = "swatch";
    swatch.style.background = colour.fill;
    swatch.style.color = colour.light ? "#111" : "#fff";
    swatch.textContent = `${v}`;
    return swatch;
  }));
}

/** The target's choices: colours for two states, state numbers for more
 *  (all of them up to 16, then a box for the number would be kinder, but
 *  a list of 255 still works with the keyboard: type the number). */
function targetOptions() {
  const select = $("target");
  const wanted = state.states === 2
    ? [["either", "either colour"], ["white", "all white"], ["black", "all black"]]
    : [["either", "any state"], ...Array.from({ length: state.states }, (_, v) => [`${v}`, `all ${v}s`])];
  const have = [...select.options].map((o) => o.value + "=" + o.textContent).join();
  if (have === wanted.map(([v, t]) => v + "=" + t).join()) return;
  select.replaceChildren(...wanted.map(([value, text]) => new Option(text, value)));
}

function buildMask() {
  const box = $("mask");
  for (let k = 0; k < 25; k++) {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("aria-label", `mask row ${Math.floor(k / 5) + 1}, column ${(k % 5) + 1}${k === 12 ? " (the pressed cell)" : ""}`);
    if (k === 12) b.className = "centre";
    b.addEventListener("click", () => {
      const bits = [...state.mask.replace(/\//g, "")];
      bits[k] = bits[k] === "1" ? "0" : "1";
      state.mask = [0, 5, 10, 15, 20].map((s) => bits.slice(s, s + 5).join("")).join("/");
      showSettings();
      ruleChanged();
    });
    box.append(b);
  }
}

function ruleChanged() {
  // A press taken back must flip what it flipped: not across a new rule.
  state.undo = [];
  state.moves = 0;
  forgetSolution();
  changed();
  analyzeSoon();
}

function cellAt(event) {
  const canvas = $("board");
  const box = canvas.getBoundingClientRect();
  const c = Math.floor(((event.clientX - box.left) / box.width) * state.cols);
  const r = Math.floor(((event.clientY - box.top) / box.height) * state.rows);
  if (r < 0 || r >= state.rows || c < 0 || c >= state.cols) return -1;
  return r * state.cols + c;
}

/** `count` numbers drawn uniformly from 0..k-1. A byte mod k would favour
 *  the low states when k does not divide 256: draws at or past the last
 *  whole multiple of k are thrown back. */
function uniformStates(count, k) {
  const out = new Uint8Array(count);
  const limit = 256 - (256 % k);
  const pool = new Uint8Array(Math.max(16, count));
  let used = pool.length;
  for (let i = 0; i < count;) {
    if (used === pool.length) {
      crypto.getRandomValues(pool);
      used = 0;
    }
    const b = pool[used++];
    if (b < limit) out[i++] = b % k;
  }
  return out;
}

function random(solvable) {
  const cells = state.rows * state.cols;
  const draws = uniformStates(cells, state.states);
  newBoard(state.board);
  forgetSolution();
  if (solvable) {
    // Pressing at random from all white gives a board that can go back:
    // each cell 0..K-1 times.
    state.board = new Uint8Array(cells);
    draws.forEach((n, i) => { if (n) press(i, n); });
    // A board made to be solved is for playing: clicks press from now on.
    state.mode = "play";
    showSettings();
    const goal = state.states === 2 ? "white" : "all 0s";
    say(`A random board that can be cleared to ${goal}. Click cells to press them (play mode).`);
  } else {
    state.board = draws;
    say("A random board.");
  }
  changed();
}

function moveCursor(key, index, rows, cols) {
  let r = Math.floor(index / cols), c = index % cols;
  if (key === "ArrowUp") r = Math.max(0, r - 1);
  if (key === "ArrowDown") r = Math.min(rows - 1, r + 1);
  if (key === "ArrowLeft") c = Math.max(0, c - 1);
  if (key === "ArrowRight") c = Math.min(cols - 1, c + 1);
  return r * cols + c;
}

function wire() {
  const board = $("board");
  board.addEventListener("click", (e) => {
    const i = cellAt(e);
    if (i >= 0) clickCell(i);
  });
  board.addEventListener("focus", drawBoard);
  board.addEventListener("blur", drawBoard);
  board.addEventListener("keydown", (e) => {
    if (e.key.startsWith("Arrow")) {
      state.cursor = moveCursor(e.key, state.cursor, state.rows, state.cols);
      say(`${cellName(state.cursor)}: ${stateName(state.board[state.cursor])}.`);
      drawBoard();
    } else if (e.key === " " || e.key === "Enter") {
      clickCell(state.cursor);
    } else if (e.key === "s") {
      solve().catch(failed);
    } else if (e.key === "h") {
      hint().catch(failed);
    } else if (e.key === "n") {
      step().catch(failed);
    } else if (e.key === "b") {
      undo();
    } else {
      return;
    }
    e.preventDefault();
  });

  // A side out of range is brought into it, in the box too, and the page
  // says so: the box must not show 300 beside a board of 256 rows.
  const sizeChanged = () => {
    const notes = [];
    const side = (id, name, current) => {
      const typed = $(id).value.trim(), n = Number(typed);
      const value = clampSide(typed, current);
      if (!Number.isInteger(n) || n < 1 || n > MAX_SIDE) {
        notes.push(`${name} go from 1 to ${MAX_SIDE}, so ${value} rather than ${typed === "" ? "nothing" : `“${typed}”`}.`);
      }
      $(id).value = value;
      return value;
    };
    const rows = side("rows", "Rows", state.rows), cols = side("cols", "Columns", state.cols);
    const note = notes.length ? notes.join(" ") + " " : "";
    if (rows !== state.rows || cols !== state.cols) setSize(rows, cols, note);
    else if (note) say(note.trim());
  };
  $("rows").addEventListener("change", sizeChanged);
  $("cols").addEventListener("change", sizeChanged);
  $("rule").addEventListener("change", () => {
    state.rule = $("rule").value;
    showSettings();
    ruleChanged();
  });
  $("torus").addEventListener("change", () => {
    state.torus = $("torus").checked;
    ruleChanged();
  });
  // Another number of states keeps the board, each cell taken mod the new
  // K (a drawn board survives going up), and is corrected into 2..255 in
  // its box like a side.
  $("states").addEventListener("change", () => {
    const typed = $("states").value.trim(), n = Number(typed);
    const states = clampStates(typed, state.states);
    const note = !Number.isInteger(n) || n < MIN_STATES || n > MAX_STATES
      ? `States go from ${MIN_STATES} to ${MAX_STATES}, so ${states} rather than ${typed === "" ? "nothing" : `“${typed}”`}. `
      : "";
    $("states").value = states;
    if (states === state.states) {
      if (note) say(note.trim());
      return;
    }
    state.target = convertTarget(state.target, states);
    state.states = states;
    state.board = state.board.map((v) => v % states);
    showSettings();
    ruleChanged();
    // The map below counts quiet patterns of K states: one of the last K
    // would mislead (a table of 64 x 64 sizes takes a fraction of a second).
    if (heat.grid.length) drawHeat();
    say(`${note}${states} states per cell: a press adds 1 to each cell it reaches, and ${states - 1} goes back to 0.`);
  });
  $("target").addEventListener("change", () => {
    state.target = $("target").value;
    forgetSolution();
    changed();
  });
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => {
      state.mode = radio.value;
      changed();
    });
  }
  $("clear").addEventListener("click", () => {
    newBoard(state.board);
    state.board = new Uint8Array(state.rows * state.cols);
    forgetSolution();
    say(state.states === 2 ? "All white." : "All 0s.");
    changed();
  });
  $("random").addEventListener("click", () => random(false));
  $("random-solvable").addEventListener("click", () => random(true));
  $("solve").addEventListener("click", () => solve().catch(failed));
  $("hint").addEventListener("click", () => hint().catch(failed));
  $("step").addEventListener("click", () => step().catch(failed));
  $("step-back").addEventListener("click", undo);
  // Ctrl+Z (Cmd+Z) takes back the last change anywhere but in a text box,
  // whose own undo it leaves alone.
  document.addEventListener("keydown", (e) => {
    const typing = e.target instanceof HTMLInputElement && e.target.type !== "radio" && e.target.type !== "checkbox";
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !typing) {
      e.preventDefault();
      undo();
    }
  });
  // A narrower window (a phone turned) gets a board drawn to its width.
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(drawBoard, 100);
  });
  $("cancel").addEventListener("click", cancelAll);

  const heatmap = $("heatmap");
  const heatCell = (e) => {
    const box = heatmap.getBoundingClientRect();
    const scale = heatmap.width / box.width;
    const c = Math.floor(((e.clientX - box.left) * scale - HEAT_LEFT) / heat.size);
    const r = Math.floor(((e.clientY - box.top) * scale - HEAT_TOP) / heat.size);
    return r >= 0 && r < heat.rows && c >= 0 && c < heat.cols ? r * heat.cols + c : -1;
  };
  $("heat").addEventListener("click", drawHeat);
  heatmap.addEventListener("mousemove", (e) => { const i = heatCell(e); if (i >= 0) describeHeat(i); });
  heatmap.addEventListener("click", (e) => { const i = heatCell(e); if (i >= 0) openSize(i); });
  heatmap.addEventListener("focus", paintHeat);
  heatmap.addEventListener("blur", paintHeat);
  heatmap.addEventListener("keydown", (e) => {
    if (!heat.grid.length) return;
    if (e.key.startsWith("Arrow")) {
      heat.cursor = moveCursor(e.key, heat.cursor, heat.rows, heat.cols);
      describeHeat(heat.cursor);
      paintHeat();
    } else if (e.key === "Enter" || e.key === " ") {
      openSize(heat.cursor);
    } else {
      return;
    }
    e.preventDefault();
  });
  // A link followed within the page (another size, rule or board) is a
  // new board, analysed like one typed in.
  window.addEventListener("hashchange", () => {
    loadFromUrl();
    showSettings();
    changed();
    analyzeSoon();
  });
}

buildMask();
loadFromUrl();
showSettings();
wire();
changed();
analyze();
drawHeat();
