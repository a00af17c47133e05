// The nullity map: a table of sizes as squares, and the way back to a size.

import { $, moveCursor, ruleName, state } from "./state.js";
import { api } from "./client.js";

// `grid` holds the nullity of each size for two states, log2 of the
// kernel's size for more (`states`, the K of the map as drawn).
// `zoom`: squares' size as chosen with − and + (0 until then: the map's
// width is about 720 px).
export const heat = { r0: 1, c0: 1, rows: 0, cols: 0, grid: [], size: 1, zoom: 0, cursor: 0, max: 0, states: 2, nullities: [] };

/** Squares' sizes that − and + step through, in px. */
const ZOOMS = [2, 3, 4, 6, 8, 11, 16, 24, 32];

// Room for the axis labels, left and top of the squares.
const HEAT_LEFT = 34, HEAT_TOP = 18;

function parseRange(text) {
  const [a, b = a] = text.split("..").map((t) => Number.parseInt(t, 10));
  return [a, b];
}

export async function drawHeat() {
  const [r0, r1] = parseRange($("heat-rows").value);
  const [c0, c1] = parseRange($("heat-cols").value);
  $("heat-info").textContent = "Computing the map…";
  try {
    const states = state.states;
    // Tables are of grids: on a graph the map keeps its rule and states.
    const body = { rows: $("heat-rows").value, cols: $("heat-cols").value, rule: ruleName(), torus: state.torus };
    if (states !== 2) body.states = states;
    const entries = await api("/api/table", body);
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

export function paintHeat() {
  const canvas = $("heatmap");
  heat.size = heat.zoom || Math.max(2, Math.min(24, Math.floor(720 / Math.max(heat.rows, heat.cols))));
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
  // A graph has no size on the map.
  const r = state.graph ? -1 : state.rows - heat.r0, c = state.cols - heat.c0;
  if (r >= 0 && r < heat.rows && c >= 0 && c < heat.cols) frame(r * heat.cols + c, false);
  if (document.activeElement === canvas) frame(heat.cursor, true);
}

export function heatSize(i) {
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

/** The map's controls; `open` opens the size of a square. */
export function wireHeat(open) {
  const heatmap = $("heatmap");
  const heatCell = (e) => {
    const box = heatmap.getBoundingClientRect();
    const scale = heatmap.width / box.width;
    const c = Math.floor(((e.clientX - box.left) * scale - HEAT_LEFT) / heat.size);
    const r = Math.floor(((e.clientY - box.top) * scale - HEAT_TOP) / heat.size);
    return r >= 0 && r < heat.rows && c >= 0 && c < heat.cols ? r * heat.cols + c : -1;
  };
  $("heat").addEventListener("click", drawHeat);
  const zoom = (step) => {
    const at = ZOOMS.findIndex((z) => z >= heat.size);
    const next = step > 0 ? ZOOMS[Math.min(ZOOMS.length - 1, (ZOOMS[at] > heat.size ? at - 1 : at) + 1)] : ZOOMS[Math.max(0, at - 1)];
    heat.zoom = next ?? heat.size;
    paintHeat();
  };
  $("heat-out").addEventListener("click", () => zoom(-1));
  $("heat-in").addEventListener("click", () => zoom(1));
  heatmap.addEventListener("mousemove", (e) => { const i = heatCell(e); if (i >= 0) describeHeat(i); });
  heatmap.addEventListener("click", (e) => { const i = heatCell(e); if (i >= 0) open(i); });
  heatmap.addEventListener("focus", paintHeat);
  heatmap.addEventListener("blur", paintHeat);
  heatmap.addEventListener("keydown", (e) => {
    if (!heat.grid.length) return;
    if (e.key.startsWith("Arrow")) {
      heat.cursor = moveCursor(e.key, heat.cursor, heat.rows, heat.cols);
      describeHeat(heat.cursor);
      paintHeat();
    } else if (e.key === "Enter" || e.key === " ") {
      open(heat.cursor);
    } else {
      return;
    }
    e.preventDefault();
  });
}
