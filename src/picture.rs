//! Pictures of boards, press grids, quiet patterns and nullity tables; on
//! a graph, of its vertices and edges where [`Layout`] places them.
//!
//! Each picture is drawn once as a [`Scene`] (rectangles, dots, text) and
//! written either as PNG (rasterised here, text in an 8×8 bitmap font) or as
//! SVG, so the two always show the same thing.

use std::io::{self, Write};

use crate::model::{Graph, Grid, Layout, Puzzle};

/// An RGB colour.
pub type Rgb = [u8; 3];

const BLACK: Rgb = [20, 20, 20];
const WHITE: Rgb = [245, 245, 240];
const GRID: Rgb = [150, 150, 150];
const PRESS: Rgb = [220, 40, 40];
const INK: Rgb = [30, 30, 30];
const PAPER: Rgb = [255, 255, 255];
const EDGE: Rgb = [110, 110, 110];

enum Shape {
    Rect {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        fill: Rgb,
    },
    Dot {
        cx: u32,
        cy: u32,
        r: u32,
        fill: Rgb,
    },
    Text {
        x: u32,
        y: u32,
        text: String,
        fill: Rgb,
    },
    /// A graph's edge: a straight line `width` pixels wide.
    Line {
        from: [f64; 2],
        to: [f64; 2],
        width: f64,
        stroke: Rgb,
    },
    /// A graph's vertex: a disc with a thin outline (an outline the colour
    /// of the fill is none).
    Disc {
        centre: [f64; 2],
        r: f64,
        fill: Rgb,
        stroke: Rgb,
    },
    /// A histogram's bar: a rectangle whose SVG carries `label` as its
    /// title (shown on hover, and read back by the tests).
    Bar {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        fill: Rgb,
        label: String,
    },
}

/// A picture as a list of shapes on a canvas of `width × height` pixels.
pub struct Scene {
    width: u32,
    height: u32,
    shapes: Vec<Shape>,
}

/// Height of a line of text (the bitmap font is 8×8).
const TEXT: u32 = 8;

impl Scene {
    fn new(width: u32, height: u32) -> Self {
        Scene { width, height, shapes: vec![Shape::Rect { x: 0, y: 0, w: width, h: height, fill: PAPER }] }
    }

    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, fill: Rgb) {
        self.shapes.push(Shape::Rect { x, y, w, h, fill });
    }

    fn text(&mut self, x: u32, y: u32, text: impl Into<String>) {
        self.shapes.push(Shape::Text { x, y, text: text.into(), fill: INK });
    }

    /// Draws `grid` with its top left at (x, y), `cell` pixels a cell:
    /// set cells dark, clear cells light, thin grid lines when cells are
    /// large enough to see them, and a red dot on every pressed cell.
    fn grid(&mut self, x: u32, y: u32, cell: u32, grid: &Grid, presses: Option<&Grid>) {
        let (rows, cols) = (grid.nrows() as u32, grid.ncols() as u32);
        let gap = u32::from(cell >= 6);
        self.rect(x, y, cols * cell, rows * cell, GRID);
        for r in 0..rows {
            for c in 0..cols {
                let fill = if grid.get(r as usize, c as usize) { BLACK } else { WHITE };
                self.rect(x + c * cell + gap, y + r * cell + gap, cell - gap, cell - gap, fill);
                if presses.is_some_and(|p| p.get(r as usize, c as usize)) {
                    let r_dot = (cell / 3).max(1);
                    self.shapes.push(Shape::Dot {
                        cx: x + c * cell + cell / 2,
                        cy: y + r * cell + cell / 2,
                        r: r_dot,
                        fill: PRESS,
                    });
                }
            }
        }
    }

    /// The scene as a PNG image.
    pub fn write_png(&self, out: impl Write) -> io::Result<()> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut pixels = vec![0u8; w * h * 3];
        let mut put = |x: u32, y: u32, fill: Rgb| {
            if (x as usize) < w && (y as usize) < h {
                let i = (y as usize * w + x as usize) * 3;
                pixels[i..i + 3].copy_from_slice(&fill);
            }
        };
        for shape in &self.shapes {
            match shape {
                Shape::Rect { x, y, w, h, fill } | Shape::Bar { x, y, w, h, fill, .. } => {
                    for yy in *y..y + h {
                        for xx in *x..x + w {
                            put(xx, yy, *fill);
                        }
                    }
                }
                Shape::Dot { cx, cy, r, fill } => {
                    let r = *r as i64;
                    for dy in -r..=r {
                        for dx in -r..=r {
                            if dx * dx + dy * dy <= r * r {
                                put((*cx as i64 + dx) as u32, (*cy as i64 + dy) as u32, *fill);
                            }
                        }
                    }
                }
                Shape::Line { from, to, width, stroke } => {
                    // Square brushes of the line's width every half pixel
                    // along it: no antialiasing, as the rest of the PNG.
                    let length = (to[0] - from[0]).hypot(to[1] - from[1]);
                    let steps = (2.0 * length).ceil().max(1.0) as usize;
                    let half = (width / 2.0).max(0.5);
                    for k in 0..=steps {
                        let t = k as f64 / steps as f64;
                        let (x, y) = (from[0] + t * (to[0] - from[0]), from[1] + t * (to[1] - from[1]));
                        for yy in (y - half).round() as i64..(y + half).round() as i64 {
                            for xx in (x - half).round() as i64..(x + half).round() as i64 {
                                if xx >= 0 && yy >= 0 {
                                    put(xx as u32, yy as u32, *stroke);
                                }
                            }
                        }
                    }
                }
                Shape::Disc { centre: [cx, cy], r, fill, stroke } => {
                    // Pixel centres within r are inside; the last pixel of
                    // them is the outline.
                    let (x0, x1) = ((cx - r).floor().max(0.0) as u32, (cx + r).ceil() as u32);
                    let (y0, y1) = ((cy - r).floor().max(0.0) as u32, (cy + r).ceil() as u32);
                    for yy in y0..=y1 {
                        for xx in x0..=x1 {
                            let d = (xx as f64 + 0.5 - cx).hypot(yy as f64 + 0.5 - cy);
                            if d <= *r {
                                put(xx, yy, if d > r - 1.2 { *stroke } else { *fill });
                            }
                        }
                    }
                }
                Shape::Text { x, y, text, fill } => {
                    for (k, ch) in text.chars().enumerate() {
                        let glyph = font8x8::legacy::BASIC_LEGACY.get(ch as usize).copied().unwrap_or([0; 8]);
                        for (row, bits) in glyph.iter().enumerate() {
                            for col in 0..8 {
                                if bits >> col & 1 == 1 {
                                    put(x + k as u32 * 8 + col, y + row as u32, *fill);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut encoder = png::Encoder::new(out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(io::Error::other)?;
        writer.write_image_data(&pixels).map_err(io::Error::other)?;
        writer.finish().map_err(io::Error::other)
    }

    /// The scene as an SVG document.
    pub fn write_svg(&self, mut out: impl Write) -> io::Result<()> {
        let hex = |c: &Rgb| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" shape-rendering="crispEdges">"#,
            w = self.width,
            h = self.height
        )?;
        for shape in &self.shapes {
            match shape {
                Shape::Rect { x, y, w, h, fill } => {
                    writeln!(out, r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}"/>"#, hex(fill))?
                }
                Shape::Bar { x, y, w, h, fill, label } => writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}"><title>{}</title></rect>"#,
                    hex(fill),
                    escaped(label)
                )?,
                Shape::Dot { cx, cy, r, fill } => {
                    writeln!(out, r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{}"/>"#, hex(fill))?
                }
                // Lines and discs are drawn smooth: crisp edges suit the
                // rectangles of a grid, not circles.
                Shape::Line { from, to, width, stroke } => writeln!(
                    out,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="{width:.1}" shape-rendering="geometricPrecision"/>"#,
                    from[0],
                    from[1],
                    to[0],
                    to[1],
                    hex(stroke)
                )?,
                Shape::Disc { centre, r, fill, stroke } => writeln!(
                    out,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="{}" stroke="{}" stroke-width="1" shape-rendering="geometricPrecision"/>"#,
                    centre[0],
                    centre[1],
                    hex(fill),
                    hex(stroke)
                )?,
                Shape::Text { x, y, text, fill } => writeln!(
                    out,
                    r#"<text x="{x}" y="{}" font-family="monospace" font-size="10" fill="{}">{}</text>"#,
                    y + TEXT,
                    hex(fill),
                    escaped(text)
                )?,
            }
        }
        writeln!(out, "</svg>")
    }
}

/// Text as SVG holds it: `&`, `<` and `>` escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Pixels per cell so that the longer side is about `target` pixels.
fn cell_size(rows: usize, cols: usize, target: u32) -> u32 {
    (target / rows.max(cols).max(1) as u32).clamp(1, 32)
}

/// A board, with its presses as red dots when given.
pub fn board(board: &Grid, presses: Option<&Grid>, title: &str) -> Scene {
    let cell = cell_size(board.nrows(), board.ncols(), 640);
    let (w, h) = (board.ncols() as u32 * cell, board.nrows() as u32 * cell);
    let margin = 8;
    let mut scene =
        Scene::new((w + 2 * margin).max(title.len() as u32 * 8 + 2 * margin), h + 3 * margin + TEXT);
    scene.text(margin, margin, title);
    scene.grid(margin, 2 * margin + TEXT, cell, board, presses);
    scene
}

/// The quiet patterns, one panel each (pressed cells dark), in a grid of
/// panels with their numbers.
pub fn patterns(patterns: &[Grid], title: &str) -> Scene {
    let (rows, cols) = patterns.first().map_or((1, 1), |p| (p.nrows(), p.ncols()));
    let cell = cell_size(rows, cols, 160).max(2);
    let per_row = (patterns.len() as f64).sqrt().ceil().max(1.0) as u32;
    let panel_w = (cols as u32 * cell).max(40) + 16;
    let panel_h = rows as u32 * cell + TEXT + 20;
    let lines = (patterns.len() as u32).div_ceil(per_row).max(1);
    let width = (per_row * panel_w + 16).max(title.len() as u32 * 8 + 16);
    let mut scene = Scene::new(width, lines * panel_h + TEXT + 24);
    scene.text(8, 8, title);
    for (i, pattern) in patterns.iter().enumerate() {
        let (px, py) = (8 + (i as u32 % per_row) * panel_w, TEXT + 20 + (i as u32 / per_row) * panel_h);
        scene.text(px, py, format!("{} ({})", i + 1, pattern.count_ones()));
        scene.grid(px, py + TEXT + 4, cell, pattern, None);
    }
    scene
}

/// A nullity table as a heat map: white for 0, darker blue for larger
/// nullities, with row and column numbers along the axes.
pub fn heat_map(table: &[Vec<usize>], first_row: usize, first_col: usize, title: &str) -> Scene {
    let rows = table.len();
    let cols = table.first().map_or(0, Vec::len);
    let cell = cell_size(rows, cols, 800);
    let max = table.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    let (left, top) = (48, 2 * TEXT + 24);
    let width = (left + cols as u32 * cell + 16).max(title.len() as u32 * 8 + 16);
    let mut scene = Scene::new(width, top + rows as u32 * cell + 2 * TEXT + 20);
    scene.text(8, 8, title);
    // Zero is white; other nullities on a log scale, so that the common
    // small ones stand out as well as the rare large ones.
    let scale = (max + 1.0).log2();
    for (r, line) in table.iter().enumerate() {
        for (c, &n) in line.iter().enumerate() {
            let fill = if n == 0 {
                PAPER
            } else {
                let t = 0.25 + 0.75 * ((n as f64 + 1.0).log2() / scale);
                [(200.0 * (1.0 - t)) as u8, (215.0 * (1.0 - t) + 20.0) as u8, (255.0 - 125.0 * t) as u8]
            };
            scene.rect(left + c as u32 * cell, top + r as u32 * cell, cell, cell, fill);
        }
    }
    // Axis numbers at round values, about every 60 pixels.
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000]
        .into_iter()
        .find(|&s| s * cell as usize >= 60)
        .unwrap_or(10000);
    for r in (0..rows).filter(|r| (first_row + r).is_multiple_of(step) || *r == 0) {
        scene.text(4, top + r as u32 * cell, format!("{:>5}", first_row + r));
    }
    for c in (0..cols).filter(|c| (first_col + c).is_multiple_of(step) || *c == 0) {
        scene.text(left + c as u32 * cell, top - TEXT - 4, (first_col + c).to_string());
    }
    scene.text(
        8,
        top + rows as u32 * cell + 12,
        format!("rows down, columns across; white = 0, darkest = {max}"),
    );
    scene
}

/// The bars of a histogram, Most Clicks' own.
const BAR: Rgb = [70, 110, 180];

/// Height of a histogram's plot, in pixels.
const PLOT_HEIGHT: u32 = 300;

/// The base-10 logarithm of a count written in decimal (counts of boards
/// pass `f64` on large kernels: the digits say the magnitude).
fn log10_of(decimal: &str) -> f64 {
    let digits = decimal.trim_start_matches('0');
    let lead: f64 = digits.get(..15).unwrap_or(digits).parse().unwrap_or(0.0);
    if lead <= 0.0 {
        return f64::NEG_INFINITY;
    }
    lead.log10() + digits.len().saturating_sub(15) as f64
}

/// A count as an axis label: `500`, `2000`, `2.5e9`.
fn tick_label(value: f64) -> String {
    if value < 1e4 { format!("{}", value.round()) } else { format!("{value:.1e}").replace(".0e", "e") }
}

/// A power of ten as an axis label: `100`, `1e6`, `1e480` (past `f64`).
fn decade_label(decade: i64) -> String {
    if decade < 4 { 10u64.pow(decade as u32).to_string() } else { format!("1e{decade}") }
}

/// How the counts map to bar heights: linear when they are within two
/// decades of each other, else logarithmic, so that the few boards of the
/// extremes show beside the millions in the middle.
enum Scale {
    /// Pixels per board.
    Linear(f64),
    /// log10 of the axis' foot (half a board: a single board still shows)
    /// and pixels per decade.
    Log(f64, f64),
}

impl Scale {
    fn of(logs: &[f64]) -> Scale {
        let finite = || logs.iter().copied().filter(|l| l.is_finite());
        let top = finite().fold(0.0, f64::max);
        let bottom = finite().fold(top, f64::min);
        if top - bottom <= 2.0 {
            Scale::Linear(f64::from(PLOT_HEIGHT) / 10f64.powf(top).max(1.0))
        } else {
            let foot = 0.5f64.log10();
            // The axis ends at the next whole decade above the tallest.
            Scale::Log(foot, f64::from(PLOT_HEIGHT) / (top.ceil().max(top + 0.1) - foot))
        }
    }

    /// The height in pixels of a bar whose count has this log10.
    fn height(&self, log10: f64) -> u32 {
        if !log10.is_finite() {
            return 0;
        }
        let h = match self {
            Scale::Linear(per) => 10f64.powf(log10) * per,
            Scale::Log(foot, per) => (log10 - foot) * per,
        };
        (h.round() as u32).clamp(1, PLOT_HEIGHT)
    }

    /// The axis' ticks as (log10 of the count, label), about every 40
    /// pixels at round values.
    fn ticks(&self) -> Vec<(f64, String)> {
        match self {
            Scale::Linear(per) => {
                let top = f64::from(PLOT_HEIGHT) / per;
                let raw = top / (f64::from(PLOT_HEIGHT) / 40.0);
                let magnitude = 10f64.powf(raw.max(1.0).log10().floor());
                let step = [1.0, 2.0, 5.0, 10.0]
                    .iter()
                    .map(|m| m * magnitude)
                    .find(|s| *s >= raw)
                    .unwrap_or(magnitude);
                let step = step.max(1.0);
                (1..)
                    .map(|k| k as f64 * step)
                    .take_while(|v| *v <= top)
                    .map(|v| (v.log10(), tick_label(v)))
                    .collect()
            }
            Scale::Log(foot, per) => {
                let decades = (f64::from(PLOT_HEIGHT) / per + foot).floor() as i64;
                // Round steps of decades, about every 24 pixels.
                let every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
                    .into_iter()
                    .find(|k| *k as f64 * per >= 24.0)
                    .unwrap_or(1000);
                (0..=decades).filter(|d| d % every == 0).map(|d| (d as f64, decade_label(d))).collect()
            }
        }
    }
}

/// Most bars a histogram draws: a pixel each past 640 of them, so 4096
/// make a picture about 4200 pixels wide (a 40x40 board's 1601 counts
/// draw 1700 wide; a 128x128 board's 16385 would be a blur).
pub const MAX_HISTOGRAM_BARS: u64 = 4096;

/// The boards of a size by their fewest presses as a histogram: a bar per
/// number of presses (none where no board needs it), its height the
/// number of boards (on a log scale when the counts span more than two
/// decades), the bar of Most Clicks (`most`, the heaviest) in red, axes
/// labelled. Each bar's SVG title says `N presses: C boards`.
///
/// # Example
/// ```
/// let counts = [(0, "1".to_string()), (1, "9".to_string()), (2, "36".to_string()), (3, "84".to_string())];
/// let scene = lightsout::picture::histogram(&counts, Some(3), "3x3");
/// let mut svg = Vec::new();
/// scene.write_svg(&mut svg)?;
/// let svg = String::from_utf8(svg).unwrap();
/// assert_eq!(svg.matches("<title>").count(), 4);
/// assert!(svg.contains("<title>3 presses: 84 boards (Most Clicks)</title>"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn histogram(counts: &[(u64, String)], most: Option<u64>, title: &str) -> Scene {
    let heaviest = counts.iter().map(|(w, _)| *w).max().unwrap_or(0);
    let bars = heaviest as u32 + 1;
    let bar = (640 / bars).clamp(1, 32);
    let gap = u32::from(bar >= 6);
    let logs: Vec<f64> = counts.iter().map(|(_, n)| log10_of(n)).collect();
    let scale = Scale::of(&logs);
    let left = 80;
    let top = 2 * TEXT + 32;
    let plot_width = bars * bar;
    let axis = match scale {
        Scale::Linear(_) => "boards",
        Scale::Log(..) => "boards (log scale)",
    };
    let footer = "presses needed (the fewest for each board)";
    let width = (left + plot_width + 24).max(title.len() as u32 * 8 + 16).max(footer.len() as u32 * 8 + left);
    let mut scene = Scene::new(width, top + PLOT_HEIGHT + 3 * TEXT + 28);
    scene.text(8, 8, title);
    scene.text(8, TEXT + 16, axis);
    let foot = top + PLOT_HEIGHT;
    // Ticks and faint lines across the plot, under the bars.
    for (log10, label) in scale.ticks() {
        let y = foot - scale.height(log10).min(PLOT_HEIGHT);
        scene.rect(left, y, plot_width, 1, [225, 225, 225]);
        scene.text(left.saturating_sub(8 * label.len() as u32 + 6), y.saturating_sub(TEXT / 2), label);
    }
    for ((presses, count), log10) in counts.iter().zip(&logs) {
        let h = scale.height(*log10);
        let is_most = most == Some(*presses);
        let fill = if is_most { PRESS } else { BAR };
        let note = if is_most { " (Most Clicks)" } else { "" };
        let boards = if count == "1" { "1 board".to_string() } else { format!("{count} boards") };
        scene.shapes.push(Shape::Bar {
            x: left + *presses as u32 * bar + gap,
            y: foot - h,
            w: bar - gap,
            h,
            fill,
            label: format!("{presses} presses: {boards}{note}"),
        });
    }
    // The axes, over the bars' feet.
    scene.rect(left - 1, top, 1, PLOT_HEIGHT + 1, INK);
    scene.rect(left - 1, foot, plot_width + 1, 1, INK);
    // Press counts under the bars at round steps, about every 40 pixels.
    let step =
        [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].into_iter().find(|s| s * bar >= 40).unwrap_or(1000);
    for w in (0..bars).filter(|w| w % step == 0) {
        let label = w.to_string();
        let x = (left + w * bar + bar / 2).saturating_sub(4 * label.len() as u32);
        scene.text(x, foot + 6, label);
    }
    if let Some(most) = most.filter(|m| *m <= heaviest) {
        let label = format!("Most Clicks {most}");
        let x = (left + most as u32 * bar + bar / 2).saturating_sub(8 * label.len() as u32 / 2).max(left);
        let x = x.min(width.saturating_sub(8 * label.len() as u32 + 4));
        scene.shapes.push(Shape::Text { x, y: top - TEXT - 6, text: label, fill: PRESS });
    }
    scene.text(left, foot + TEXT + 16, footer);
    scene
}

/// Most vertices a picture of a graph draws: past a few thousand the
/// discs and edges are a blur, and finding how close the closest two
/// vertices sit (which sizes the discs) weighs every pair.
pub const MAX_GRAPH_VERTICES: usize = 4096;

/// Where a graph's [`Layout`] lands in pixels: `scale` pixels a layout
/// unit, vertex discs of radius `r`, in a box `width × height` (margins
/// included).
struct Placement {
    scale: f64,
    r: f64,
    width: u32,
    height: u32,
}

impl Placement {
    /// The longer side about `target` pixels, grown (up to four times) when
    /// the closest two vertices would otherwise sit under 10 pixels apart;
    /// discs up to `max_r`, never so large that neighbours touch.
    fn new(layout: &Layout, target: f64, max_r: f64) -> Placement {
        let p = layout.positions();
        let mut closest = f64::INFINITY;
        for u in 0..p.len() {
            for v in 0..u {
                closest = closest.min((p[u][0] - p[v][0]).hypot(p[u][1] - p[v][1]));
            }
        }
        let scale = if closest.is_finite() { (10.0 / closest).clamp(target, 4.0 * target) } else { target };
        let r = if closest.is_finite() { (0.32 * closest * scale).clamp(2.0, max_r) } else { max_r };
        let top = |k: usize| p.iter().map(|q| q[k]).fold(0.0, f64::max);
        let side = |extent: f64| (extent * scale + 2.0 * r + 4.0).ceil() as u32;
        Placement { scale, r, width: side(top(0)), height: side(top(1)) }
    }

    /// The pixel of layout position `p` in a drawing whose top left is `origin`.
    fn at(&self, origin: (u32, u32), p: [f64; 2]) -> [f64; 2] {
        let margin = self.r + 2.0;
        [origin.0 as f64 + margin + p[0] * self.scale, origin.1 as f64 + margin + p[1] * self.scale]
    }
}

impl Scene {
    /// Draws `graph` where `place` puts `layout`, its top left at `origin`:
    /// the edges as grey lines (in the cube's net, only those the net
    /// keeps), each vertex a disc, dark when set in `states` (a board of
    /// one row, a vertex a cell), with a red dot when pressed.
    fn graph(
        &mut self,
        origin: (u32, u32),
        place: &Placement,
        (graph, layout): (&Graph, &Layout),
        states: &Grid,
        presses: Option<&Grid>,
    ) {
        let at = |v: usize| place.at(origin, layout.positions()[v]);
        let width = if place.r >= 8.0 { 2.0 } else { 1.0 };
        for (u, v) in graph.edges().filter(|&(u, v)| layout.draws_edge(u, v)) {
            self.shapes.push(Shape::Line { from: at(u), to: at(v), width, stroke: EDGE });
        }
        for v in 0..graph.vertex_count() {
            let fill = if states.get(0, v) { BLACK } else { WHITE };
            self.shapes.push(Shape::Disc { centre: at(v), r: place.r, fill, stroke: INK });
            if presses.is_some_and(|p| p.get(0, v)) {
                let r = (place.r / 2.0).max(1.0);
                self.shapes.push(Shape::Disc { centre: at(v), r, fill: PRESS, stroke: PRESS });
            }
        }
    }
}

/// What a picture of the cube's net says of the edges it leaves out.
const NET_NOTE: &str = "drawn as its net: edges between stickers that meet across a fold are not drawn";

/// A graph picture's canvas: `width` at least `drawing_width` and wide
/// enough for the title (and, for the cube's net, the note under it),
/// with the title written; returns the scene and where drawing starts.
fn graph_canvas(layout: &Layout, title: &str, drawing_width: u32, drawing_height: u32) -> (Scene, u32) {
    let wide = |text: &str| text.len() as u32 * 8 + 16;
    let mut width = drawing_width.max(wide(title));
    let mut top = TEXT + 16;
    if layout.is_net() {
        width = width.max(wide(NET_NOTE));
        top += TEXT + 4;
    }
    let mut scene = Scene::new(width, top + drawing_height + 8);
    scene.text(8, 8, title);
    if layout.is_net() {
        scene.text(8, 8 + TEXT + 4, NET_NOTE);
    }
    (scene, top)
}

/// A board on a graph (one row, a vertex a cell) drawn on the graph: set
/// vertices dark, presses (when given) as red dots.
///
/// # Example
/// ```
/// use lightsout::model::{Graph, Grid, Layout};
///
/// let petersen = Graph::named("petersen")?;
/// let board = Grid::ones(1, 10);
/// let scene = lightsout::picture::graph_board(&petersen, &Layout::of(&petersen), &board, None, "Petersen");
/// let mut svg = Vec::new();
/// scene.write_svg(&mut svg)?;
/// let svg = String::from_utf8(svg).unwrap();
/// assert_eq!((svg.matches("<circle").count(), svg.matches("<line").count()), (10, 15));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn graph_board(
    graph: &Graph,
    layout: &Layout,
    board: &Grid,
    presses: Option<&Grid>,
    title: &str,
) -> Scene {
    let place = Placement::new(layout, 480.0, 24.0);
    let (mut scene, top) = graph_canvas(layout, title, place.width + 16, place.height);
    let left = (scene.width - place.width) / 2;
    scene.graph((left, top), &place, (graph, layout), board, presses);
    scene
}

/// The quiet patterns of a graph, one small drawing of the graph each
/// (pressed vertices dark), in a grid of panels with their numbers.
pub fn graph_patterns(graph: &Graph, layout: &Layout, patterns: &[Grid], title: &str) -> Scene {
    let place = Placement::new(layout, 180.0, 10.0);
    let per_row = (patterns.len() as f64).sqrt().ceil().max(1.0) as u32;
    let panel_w = place.width.max(64) + 16;
    let panel_h = place.height + TEXT + 16;
    let lines = (patterns.len() as u32).div_ceil(per_row).max(1);
    let (mut scene, top) = graph_canvas(layout, title, per_row * panel_w + 16, lines * panel_h);
    for (i, pattern) in patterns.iter().enumerate() {
        let (px, py) = (8 + (i as u32 % per_row) * panel_w, top + (i as u32 / per_row) * panel_h);
        scene.text(px, py, format!("{} ({})", i + 1, pattern.count_ones()));
        scene.graph((px, py + TEXT + 4), &place, (graph, layout), pattern, None);
    }
    scene
}

/// A graph as a picture's title names it: `Petersen graph, 10 vertices,
/// 15 edges` (the shape [`Layout`] recognised, or `graph`).
pub fn graph_title(graph: &Graph, layout: &Layout) -> String {
    let plural = |n: usize, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") };
    format!(
        "{}, {}, {}",
        layout.shape().name(),
        plural(graph.vertex_count(), "vertex").replace("vertexs", "vertices"),
        plural(graph.edge_count(), "edge")
    )
}

/// A board of `puzzle` with its presses (red dots) where given, titled
/// `title_end` after its size, or on a graph after what the graph is
/// (`Petersen graph, 10 vertices, 15 edges, 4 presses to white`): what
/// `lightsout solve --svg` draws, and a Python solution in a notebook.
///
/// # Errors
/// [`check_graph`]'s, on a graph.
pub fn board_on(
    puzzle: &Puzzle,
    board: &Grid,
    presses: Option<&Grid>,
    title_end: &str,
) -> Result<Scene, crate::Error> {
    let Some(graph) = puzzle.graph() else {
        let title = format!("{}x{} board, {title_end}", board.nrows(), board.ncols());
        return Ok(self::board(board, presses, &title));
    };
    check_graph(graph, 1)?;
    let layout = Layout::of(graph);
    let title = format!("{}, {title_end}", graph_title(graph, &layout));
    Ok(graph_board(graph, &layout, board, presses, &title))
}

/// The quiet patterns of `puzzle`, a panel each, titled by its size and
/// topology (or what the graph is), its rule and their number: what
/// `lightsout analyze --svg` draws, and a Python analysis in a notebook.
///
/// # Errors
/// [`check_graph`]'s, on a graph.
pub fn quiet_patterns_on(puzzle: &Puzzle, quiet: &[Grid], nullity: usize) -> Result<Scene, crate::Error> {
    let count = if nullity == 1 { "1 quiet pattern".into() } else { format!("{nullity} quiet patterns") };
    let Some(graph) = puzzle.graph() else {
        let topology = crate::present::topology_name(puzzle.topology());
        let title =
            format!("{}x{} {topology}, rule {}: {count}", puzzle.rows(), puzzle.cols(), puzzle.rule());
        return Ok(patterns(quiet, &title));
    };
    check_graph(graph, quiet.len())?;
    let layout = Layout::of(graph);
    let title = format!("{}, rule {}: {count}", graph_title(graph, &layout), puzzle.rule());
    Ok(graph_patterns(graph, &layout, quiet, &title))
}

/// Most edges a picture draws in all (each drawing of the graph counts
/// its edges): a quarter of a million lines take seconds to rasterise and
/// make an SVG of tens of megabytes; more show nothing but ink.
pub const MAX_DRAWN_EDGES: usize = 1 << 18;

/// Refuses a picture of `drawings` copies of `graph` when it has more than
/// [`MAX_GRAPH_VERTICES`] vertices or they hold more than
/// [`MAX_DRAWN_EDGES`] edges in all.
///
/// # Errors
/// [`Error::Limit`](crate::Error::Limit) saying how many there are and how
/// many a picture draws.
pub fn check_graph(graph: &Graph, drawings: usize) -> Result<(), crate::Error> {
    let n = graph.vertex_count();
    if n > MAX_GRAPH_VERTICES {
        return Err(crate::Error::Limit(format!(
            "a picture of a graph of {n} vertices would be a blur (a picture draws at most {MAX_GRAPH_VERTICES})"
        )));
    }
    let edges = graph.edge_count().saturating_mul(drawings.max(1));
    if edges > MAX_DRAWN_EDGES {
        let copies = if drawings > 1 { format!(" in {drawings} drawings") } else { String::new() };
        return Err(crate::Error::Limit(format!(
            "a picture of {edges} edges{copies} would be a blur (a picture draws at most {MAX_DRAWN_EDGES})"
        )));
    }
    Ok(())
}
