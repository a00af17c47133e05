// The settings: size, rule, torus, number of states, target and mode.

import { $, clampSide, clampStates, convertTarget, say, state, MAX_SIDE, MAX_STATES, MIN_STATES } from "./state.js";
import { forgetSolution } from "./puzzle.js";
import { changed, stateColour } from "./draw.js";
import { analyzeSoon } from "./quiet.js";
import { drawHeat, heat, heatSize, paintHeat } from "./heat.js";

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

export function openSize(i) {
  const [r, c] = heatSize(i);
  setSize(r, c);
  paintHeat();
  $("board").focus();
}

export function showSettings() {
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

export function buildMask() {
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

/** The settings' boxes: size, rule, torus, states, target and mode. */
export function wireSettings() {
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
}
