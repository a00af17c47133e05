// Light chasing, the method by hand, one step a click (Chase): chase the
// lights down row by row, read the last row, look up the first-row
// presses, chase again. The server works the steps out (/api/chase, the
// library's analysis::chase); this module says them and presses them.

import { offsets, plural, presses, say, state } from "./state.js";
import { forgetSolution, showLegend } from "./puzzle.js";
import { changed } from "./draw.js";
import { api, boardRows, gridBits } from "./client.js";
import { makeMove } from "./play.js";

/** Why this game cannot be chased, in one line, or "" when it can. */
export function chaseRefusal() {
  const classic = "Light chasing is for the classic game (plus rule, plane grid, two states)";
  if (state.graph) return `${classic}: a graph has no rows to chase down.`;
  if (state.states !== 2) return `${classic}: this board has ${state.states} states.`;
  const plus = [[-1, 0], [0, -1], [0, 0], [0, 1], [1, 0]];
  const rule = offsets().map(([r, c]) => [r, c]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (JSON.stringify(rule) !== JSON.stringify(plus)) {
    return `${classic}: with this rule a press below a light also changes the rows above it.`;
  }
  if (state.torus) return `${classic}: on a torus the last row wraps round to the first.`;
  return "";
}

/** Columns (from 1) in words: "column 3", "columns 1, 2 and 5". */
function columns(cols) {
  const named = cols.map((c) => `${c + 1}`);
  if (named.length === 1) return `column ${named[0]}`;
  return `columns ${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
}

/** The columns set in a row of the API's `x`/`.` (or `b`/`w`). */
function setColumns(row) {
  return [...gridBits([row.replace(/b/g, "x")])].reduce((out, bit, c) => (bit ? [...out, c] : out), []);
}

/** A row of lights drawn in text: ● lit, ○ dark. */
function drawnRow(row) {
  return [...row].map((ch) => (ch === "b" ? "●" : "○")).join(" ");
}

/** The steps of the walk the server gave, one per click. */
function stepsOf(walk) {
  const steps = [{ kind: "start" }];
  walk.first_chase.forEach((row, i) => steps.push({ kind: "down", row: i + 1, cols: setColumns(row), pass: 1 }));
  steps.push({ kind: "lookup" });
  if (walk.first_row !== null && walk.last_row.includes("b")) {
    steps.push({ kind: "first", row: 0, cols: setColumns(walk.first_row) });
    walk.second_chase.forEach((row, i) => steps.push({ kind: "down", row: i + 1, cols: setColumns(row), pass: 2 }));
  }
  return steps;
}

/** The cells the next step presses (marked on the board), as indices. */
function nextPresses(chase) {
  const next = chase.steps[chase.at];
  return next && next.cols ? next.cols.map((c) => next.row * state.cols + c) : [];
}

/** Presses the cells of one step, as moves (Back takes them back). */
function pressRow(step) {
  for (const c of step.cols) makeMove(step.row * state.cols + c);
}

/** One step of light chasing from the board as it is: the first click
 *  (or one after the board changed) asks the server for the walk. */
export async function chaseStep() {
  const refusal = chaseRefusal();
  if (refusal) {
    say(refusal);
    return;
  }
  let chase = state.chase;
  const fresh = !chase || !sameBoard(chase.expect) || chase.at >= chase.steps.length;
  if (fresh && !state.board.some((v) => v)) {
    say("The board has no lights: nothing to chase.");
    return;
  }
  if (fresh) {
    const walk = await api("/api/chase", { board: boardRows() });
    chase = { walk, steps: stepsOf(walk), at: 0, expect: null, marks: [] };
  }
  // The chase's marks are the presses on the board: a solution shown
  // (Solve, Hint) is put away, the chase kept.
  forgetSolution();
  state.chase = chase;
  const step = chase.steps[chase.at];
  chase.at += 1;
  let text = tell(chase, step);
  if (chase.at === chase.steps.length && step.kind !== "lookup") text += ` ${summary(chase.walk)}`;
  chase.expect = Uint8Array.from(state.board);
  chase.marks = nextPresses(chase);
  showLegend();
  say(text);
  changed();
}

function sameBoard(expect) {
  return expect !== null && expect.length === state.board.length && expect.every((v, i) => v === state.board[i]);
}

/** Makes `step` (pressing its cells) and says what it did and what is next. */
function tell(chase, step) {
  const walk = chase.walk;
  const last = state.rows;
  const next = chase.steps[chase.at];
  const marked = next && next.cols && next.cols.length ? " The next presses are marked." : "";
  if (step.kind === "start") {
    if (state.rows === 1) return "Light chasing needs rows to chase down; this board has one. Click Chase to look its row up.";
    return "Light chasing, by hand: press the cell below every lit (black) cell, row by row from the top, until only " +
      `the last row has lights; then a table says which first-row cells to press, and a second chase clears the board.${marked}`;
  }
  if (step.kind === "down") {
    pressRow(step);
    const again = step.pass === 2 ? " (second chase)" : "";
    const lead = `Row ${step.row + 1}${again}: `;
    if (!step.cols.length) return `${lead}row ${step.row} has no lights, so nothing to press.${marked}`;
    const lit = `${step.cols.length} lit ${plural(step.cols.length, "cell")}`;
    return `${lead}pressed below the ${lit} of row ${step.row} (${columns(step.cols)}), which turns them off.${marked}`;
  }
  if (step.kind === "lookup") {
    const lit = setColumns(walk.last_row);
    // 2^d in words: a number while it is short, else the power.
    const ways = walk.nullity <= 20 ? `${2 ** walk.nullity}` : `2^${walk.nullity}`;
    if (!lit.length) return `The lights are chased off the board: it is clear, in ${presses(walk.presses)}.`;
    const seen = `Only row ${last} has lights now: ${drawnRow(walk.last_row)} (${columns(lit)}).`;
    if (walk.first_row === null) {
      const why = walk.nullity === state.cols
        ? ` On ${state.rows}×${state.cols} every first row, pressed and chased down, leaves the last row as it was, so only a chase that clears the board by itself works.`
        : "";
      return `${seen} No first-row presses clear that last row, so no presses at all clear this board (nullity ${walk.nullity}: ` +
        `only 1 board in ${ways} can be cleared).${why}`;
    }
    const first = setColumns(walk.first_row);
    const choice = walk.nullity === 0 ? ""
      : ` ${ways} first rows do it; this one ${walk.fewest_first_row ? "has the fewest presses" : "is one of them"}.`;
    return `${seen} The lookup for that last row: press row 1 at ${columns(first)} (marked), then chase down again.${choice}`;
  }
  if (step.kind === "first") {
    pressRow(step);
    const again = state.rows > 1 ? " Now chase the lights down again." : "";
    return `Row 1: pressed ${columns(step.cols)}, as the lookup says.${again}${marked}`;
  }
  return "";
}

/** The end of a walk that cleared the board. */
function summary(walk) {
  const net = gridBits(walk.solution).reduce((n, bit) => n + bit, 0);
  return `Cleared by light chasing: ${presses(walk.presses)} in all (${net} ${plural(net, "cell")} pressed an odd number ` +
    "of times); Solve finds the fewest.";
}
