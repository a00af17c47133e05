// The explorer page: plain DOM and canvas, no framework, no build step.
// The board lives here; the server solves and analyses (the JSON API that
// `lightsout serve` documents in docs/serve.md).

const MAX_SIDE = 256;
// States a cell takes (Z_K): a press adds 1 to each cell it reaches, mod
// STATES. The page plays two-state boards today; everything that changes a
// cell goes through `press` and `setCell`, so more states need only those,
// the drawing and the URL.
const STATES = 2;
const $ = (id) => document.getElementById(id);

// ---- State, and the URL that holds it -------------------------------------

const state = {
  rows: 5,
  cols: 5,
  rule: "plus",
  mask: "00000/00100/01110/00100/00000",
  torus: false,
  target: "either",
  mode: "set",
  board: new Uint8Array(25),
  cursor: 0,
  // The last solution of the board as it was when solved: `presses`, a
  // Map of cell -> times to press it; `pressed`, a Map of cell -> times it
  // was pressed since (mod STATES); the target and whether the server
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
  // proves it (from /api/check).
  proof: null,
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

/** Board bits, row-major, packed 8 to a byte, as base64url. */
function encodeBoard(bits) {
  const bytes = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => { if (b) bytes[i >> 3] |= 1 << (i & 7); });
  let text = "";
  bytes.forEach((b) => { text += String.fromCharCode(b); });
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeBoard(text, cells) {
  const bits = new Uint8Array(cells);
  try {
    const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    for (let i = 0; i < cells && (i >> 3) < raw.length; i++) bits[i] = (raw.charCodeAt(i >> 3) >> (i & 7)) & 1;
  } catch { /* a damaged link gives a white board */ }
  return bits;
}

function clampSide(value, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(MAX_SIDE, Math.max(1, n)) : fallback;
}

function saveToUrl() {
  const p = new URLSearchParams({
    rows: state.rows, cols: state.cols, rule: state.rule, torus: state.torus ? 1 : 0,
    target: state.target, mode: state.mode, board: encodeBoard(state.board),
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
  state.target = ["white", "black", "either"].includes(p.get("target")) ? p.get("target") : "either";
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

/** Presses cell `i` `times` times (STATES - 1 times takes a press back). */
function press(i, times = 1) {
  for (const j of flippedBy(i)) state.board[j] = (state.board[j] + times) % STATES;
  const s = state.solution;
  if (s) s.pressed.set(i, ((s.pressed.get(i) || 0) + times) % STATES);
}

/** Sets cell `i` to `value`: drawing, not playing. */
function setCell(i, value) {
  state.board[i] = value % STATES;
}

function forgetSolution() {
  state.solution = null;
  state.proof = null;
  state.hint = -1;
  $("presses").textContent = "";
  showLegend();
}

/** Times cell `i` is still to be pressed to finish the solution `s`. */
function left(s, i) {
  return (((s.presses.get(i) || 0) - (s.pressed.get(i) || 0)) % STATES + STATES) % STATES;
}

/** The cells still to press for `s`, in reading order. */
function remaining(s) {
  const cells = new Set([...s.presses.keys(), ...s.pressed.keys()]);
  return [...cells].filter((i) => left(s, i) > 0).sort((a, b) => a - b);
}

/** Presses of the solution made (cells whose presses are all done). */
function stepsDone(s) {
  return [...s.presses.keys()].filter((i) => left(s, i) === 0).length;
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
    say(`Set ${cellName(i)} to ${state.board[i] ? "black" : "white"}.`);
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

/** The colour the board shows all over, or null. */
function uniformColour() {
  const black = state.board.reduce((a, b) => a + (b ? 1 : 0), 0);
  if (black === 0) return "white";
  if (black === state.board.length) return "black";
  return null;
}

/** Whether the board now shows what was asked for. */
function won() {
  const colour = uniformColour();
  return colour !== null && (state.target === "either" || state.target === colour);
}

function solvedText() {
  const colour = uniformColour();
  return colour ? ` The board is all ${colour}.` : "";
}

/** After a press: the win, or (with `count`) how much of the solution is
 *  left. */
function progressText(count = true) {
  if (won() && state.moves > 0) {
    return ` Solved in ${state.moves} ${plural(state.moves, "move")}!${solvedText()}`;
  }
  const s = state.solution;
  if (!s || !count) return solvedText();
  const todo = remaining(s).length;
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
    press(change.cell, STATES - 1);
    state.moves -= 1;
    state.cursor = change.cell;
    say(`Took back the press of ${cellName(change.cell)} (${state.moves} ${plural(state.moves, "move")}).` +
      progressText());
  } else if (change.kind === "set") {
    setCell(change.cell, change.before);
    state.moves = change.moves;
    state.cursor = change.cell;
    forgetSolution();
    say(`Took back: ${cellName(change.cell)} is ${state.board[change.cell] ? "black" : "white"} again.`);
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

/** Draws `bits` (1 = black) as a board of `rows` × `cols` on `canvas`. */
function drawGrid(canvas, bits, rows, cols, size) {
  canvas.width = cols * size;
  canvas.height = rows * size;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "#111";
  for (let i = 0; i < rows * cols; i++) {
    if (bits[i]) g.fillRect((i % cols) * size, Math.floor(i / cols) * size, size, size);
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
  if (s) {
    for (const i of s.presses.keys()) if (left(s, i) === 0) mark(g, i, size, "#777");
    for (const i of remaining(s)) mark(g, i, size, "#e0a100");
  }
  for (const i of state.proof || []) proofMark(g, i, size);
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
  if (win) $("win").textContent = `Solved in ${state.moves} ${plural(state.moves, "move")}: all ${uniformColour()}!`;
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

/** Presses listed in words under the board (all are drawn). */
const LISTED_PRESSES = 100;

/** Asks for the fewest presses from the board as it is now. */
async function solve() {
  const answer = await api("/api/solve", {
    board: boardRows(), target: state.target, rule: ruleName(), torus: state.torus,
  });
  const name = state.target === "either" ? answer.best.target : state.target;
  const entry = name && answer[name];
  if (!entry || !entry.solvable) {
    forgetSolution();
    const goal = state.target === "either" ? "all white or all black" : `all ${state.target}`;
    // The proof: a pattern that every press meets in an even number of
    // cells, and the cells to flip in an odd number.
    const colour = state.target === "black" ? "black" : "white";
    const check = await api("/api/check", { board: boardRows(), target: colour, rule: ruleName(), torus: state.torus });
    state.proof = gridBits(check[colour].obstruction).reduce((cells, bit, i) => (bit ? [...cells, i] : cells), []);
    say(`Impossible: no presses make this board ${goal} (nullity ${answer.nullity}). ` +
      `The squares mark the proof: every press flips an even number of them, but an odd number must change to reach all ${colour}.`);
    changed();
    return null;
  }
  const presses = [];
  entry.solution.forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "x") presses.push(r * state.cols + c); }));
  state.solution = {
    presses: new Map(presses.map((i) => [i, 1])), pressed: new Map(), target: name, proven: entry.proven_minimal,
  };
  state.hint = -1;
  showLegend();
  const proof = entry.proven_minimal ? "proven minimal" : "not proven minimal";
  say(`${entry.presses} presses to all ${name} (${proof}).`);
  const listed = presses.slice(0, LISTED_PRESSES).map((i) => `r${Math.floor(i / state.cols) + 1}c${(i % state.cols) + 1}`);
  if (presses.length > LISTED_PRESSES) listed.push(`… and ${presses.length - LISTED_PRESSES} more`);
  $("presses").textContent = presses.length ? "Press: " + listed.join(" ") : "No presses needed.";
  changed();
  return state.solution;
}

async function hint() {
  const s = state.solution || (await solve());
  if (!s) return;
  const [next] = remaining(s);
  if (next === undefined) {
    say(`Solved: the board is all ${s.target}.`);
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
  const strays = [...s.pressed.keys()].some((i) => !s.presses.has(i) && left(s, i) > 0);
  const where = strays ? `Pressed ${cellName(next)}.` : `Step ${stepsDone(s)} of ${s.presses.size}.`;
  say(where + progressText(strays));
  changed();
}

// ---- Quiet patterns -----------------------------------------------------------

const SHOWN_PATTERNS = 64;
let quietPatterns = [];

function gridBits(lines) {
  return Uint8Array.from(lines.join("").split(""), (ch) => (ch === "x" ? 1 : 0));
}

async function analyze() {
  const box = $("quiet");
  // Nothing of the last size stays on show while the next is computed.
  $("analysis").textContent = `Analysing ${state.rows}×${state.cols}…`;
  box.replaceChildren();
  try {
    const a = await api("/api/analyze", { rows: state.rows, cols: state.cols, rule: ruleName(), torus: state.torus });
    quietPatterns = a.quiet_patterns;
    const d = a.nullity;
    let text = `${a.rows}×${a.cols} ${a.topology}, rule ${a.rule}: rank ${a.rank}, nullity ${d}. `;
    text += d === 0
      ? "Every board can be cleared, in exactly one way."
      : `1 board in 2^${d} can be cleared. Lightest quiet pattern: ${a.lightest_quiet_pattern.presses} presses.`;
    if (a.gcd) text += ` gcd polynomial: ${a.gcd}.`;
    $("analysis").textContent = text;
    box.replaceChildren();
    quietPatterns.slice(0, SHOWN_PATTERNS).forEach((pattern, k) => {
      const button = document.createElement("button");
      button.type = "button";
      const weight = pattern.join("").split("x").length - 1;
      button.setAttribute("aria-label", `Quiet pattern ${k + 1}, ${weight} presses: open`);
      const canvas = document.createElement("canvas");
      drawGrid(canvas, gridBits(pattern), a.rows, a.cols, cellSize(a.rows, a.cols, 96));
      button.append(canvas, `${k + 1}: ${weight} presses`);
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
  const pattern = quietPatterns[k];
  const weight = pattern.join("").split("x").length - 1;
  $("pattern-title").textContent = `Quiet pattern ${k + 1} of ${a.rows}×${a.cols}: ${weight} presses (black = press)`;
  drawGrid($("pattern-canvas"), gridBits(pattern), a.rows, a.cols, cellSize(a.rows, a.cols, 480));
  $("pattern-dialog").showModal();
}

let analyzeTimer = 0;
function analyzeSoon() {
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(analyze, 300);
}

// ---- The nullity map ----------------------------------------------------------

const heat = { r0: 1, c0: 1, rows: 0, cols: 0, grid: [], size: 1, cursor: 0, max: 0 };
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
    const entries = await api("/api/table", {
      rows: $("heat-rows").value, cols: $("heat-cols").value, rule: ruleName(), torus: state.torus,
    });
    Object.assign(heat, { r0, c0, rows: r1 - r0 + 1, cols: c1 - c0 + 1, cursor: 0 });
    heat.grid = entries.map((e) => e.nullity);
    heat.max = Math.max(1, ...heat.grid);
    paintHeat();
    $("heat-info").textContent =
      `${r0}..${r1} × ${c0}..${c1}, rule ${ruleName()}${state.torus ? ", torus" : ""}: nullity 0 to ${heat.max}.`;
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
    // Grey by log(1 + nullity): white for 0, black for the most.
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
  $("heat-info").textContent = `${r}×${c}: nullity ${heat.grid[i]}.`;
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
  say(`${note}A white ${rows}×${cols} board.`);
  changed();
  analyzeSoon();
}

function showSettings() {
  $("rows").value = state.rows;
  $("cols").value = state.cols;
  $("rule").value = state.rule;
  $("torus").checked = state.torus;
  $("target").value = state.target;
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === state.mode;
  $("mask").hidden = state.rule !== "mask";
  const bits = state.mask.replace(/\//g, "");
  $("mask").querySelectorAll("button").forEach((b, k) => b.setAttribute("aria-pressed", bits[k] === "1"));
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

function random(solvable) {
  const cells = state.rows * state.cols;
  const bits = new Uint8Array(cells);
  crypto.getRandomValues(bits);
  newBoard(state.board);
  forgetSolution();
  if (solvable) {
    // Pressing at random from all white gives a board that can go back.
    state.board = new Uint8Array(cells);
    bits.forEach((b, i) => { if (b & 1) press(i); });
    // A board made to be solved is for playing: clicks press from now on.
    state.mode = "play";
    showSettings();
    say("A random board that can be cleared to white. Click cells to press them (play mode).");
  } else {
    state.board = bits.map((b) => b % STATES);
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
      say(`${cellName(state.cursor)}: ${state.board[state.cursor] ? "black" : "white"}.`);
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
    say("All white.");
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
