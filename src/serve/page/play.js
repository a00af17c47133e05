// Play mode: a press, a set cell, the move counter, and taking them back.

import { cellName, plural, presses, say, state, stateName } from "./state.js";
import { forgetSolution, left, press, remaining, setCell, solvedText, won } from "./puzzle.js";
import { changed } from "./draw.js";

/** Remembers a change so that Back and Ctrl+Z can take it back. */
function remember(change) {
  state.undo.push(change);
  // Enough for any game by hand; old changes of a long session drop off.
  if (state.undo.length > 10000) state.undo.shift();
}

/** A new board (drawn, filled, resized): its presses start from 0. */
export function newBoard(before) {
  remember({ kind: "board", before, moves: state.moves });
  state.moves = 0;
}

/** A click (or Space) on cell `i`: set it, or press it. */
export function clickCell(i) {
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
export function makeMove(i) {
  press(i);
  remember({ kind: "press", cell: i });
  state.moves += 1;
  state.hint = -1;
}

/** After a press: the win, or (with `count`) how much of the solution is
 *  left. */
export function progressText(count = true) {
  if (won() && state.moves > 0) {
    return ` Solved in ${state.moves} ${plural(state.moves, "move")}!${solvedText()}`;
  }
  const s = state.solution;
  if (!s || !count) return solvedText();
  const todo = remaining(s).reduce((n, i) => n + left(s, i), 0);
  return ` ${presses(todo)} of the solution left.${solvedText()}`;
}

/** Takes back the last change: a press, a set cell or a new board. */
export function undo() {
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
