//! The answer to one board, as the POJ line, the text lines and the JSON
//! object (`lightsout solve` prints them; `lightsout serve` answers with
//! the JSON), for both kinds of game: one [`Report`], rendered through what
//! the game says of its boards ([`Shown`]). The two-state game is here; the
//! K-state game is in `states.rs`, beside its other JSON.

use std::borrow::Cow;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Value, json};

use super::puzzle_topology;
use crate::solve::TargetOf;
use crate::{Answer, Board, FoundBy, Game, Grid, Solution, Solver, Target, grid_lines};

/// How a board's answer is printed: the format words of `lightsout solve`
/// (the CLI's `--format` maps onto these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerFormat {
    /// The fewest presses, or `Impossible` (POJ 1753).
    Poj,
    /// A few readable lines.
    Text,
    /// One JSON object on a line.
    Json,
}

/// How a game shows its boards, press sets and answers (`Solver` for two
/// states, `StateSolver` for K): its answer as tallies, and how its header,
/// press lines, grids and JSON read. Everything else (the POJ line, the
/// text's target and best lines, `--show`) is [`Report`]'s, once for both.
/// The game, not the board, says it: a board's lines and JSON need the
/// game's states, a header its kernel, the reached board its rule.
///
/// ```
/// use lightsout::present::Shown;
/// use lightsout::{Game, Method, Puzzle, Solver, Target, parse_boards};
///
/// let board = &parse_boards(b"bw\nww\n", "example", None, None)?[0];
/// let game = Solver::new(&Puzzle::new(2, 2)?, Method::Auto, 32)?;
/// assert_eq!(game.board_lines(board), ["bw", "ww"]);
/// let verdicts = [(Target::White, game.obstruction(board, &Target::White)?)];
/// assert!(game.check_json(1, &verdicts).contains(r#""white":{"solvable":true"#));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub trait Shown: Game + Sized {
    /// Whether the text gives a lower bound beside a count not proven
    /// minimal (`; at least N`).
    const SHOWS_LOWER_BOUND: bool;

    /// A target's name, as answers and notes print it.
    fn target_name(&self, target: &TargetOf<Self>) -> Cow<'static, str>;
    /// Each target's result in `answer`, in the order asked.
    fn tallies<'a>(&self, answer: &'a Answer<Self::Board>) -> Vec<Tally<'a, Self>>;
    /// The text answer's first line: board `index`, its size and the
    /// game's kernel.
    fn header(&self, index: usize, board: &Self::Board) -> String;
    /// Whether the game is on a graph (presses listed by vertex).
    fn on_graph(&self) -> bool;
    /// The text line listing the best's `count` presses (`count` > 0).
    /// No game is asked: a streamed board's text is written without one.
    fn press_line(presses: &Self::Board, count: u64, graph: bool) -> String;
    /// A press set's lines, as `--show` draws them.
    fn press_lines(&self, presses: &Self::Board) -> Vec<String>;
    /// The board `presses` reach from `board` and its lines, re-applied
    /// here (`None` when it cannot be: nothing is drawn).
    fn reached_lines(&self, board: &Self::Board, presses: &Self::Board) -> Option<Vec<String>>;
    /// Board `index`'s answer as one JSON object (without a line break).
    fn answer_json(&self, index: usize, board: &Self::Board, answer: &Answer<Self::Board>) -> String;
    /// A press set as JSON (its lines, as `solve` reads boards).
    fn presses_json(&self, presses: &Self::Board) -> Value;
    /// A board's lines as `solve` reads them (`b`/`w`, or states).
    fn board_lines(&self, board: &Self::Board) -> Vec<String>;
    /// A board as JSON: its lines, as the server reads boards.
    fn board_json(&self, board: &Self::Board) -> Value;
    /// The verdicts of `check` on board `index` as JSON: per target,
    /// solvable, or the obstruction `y` (`yᵀ·A = 0`) that proves it is not.
    fn check_json(&self, index: usize, verdicts: &[(TargetOf<Self>, Option<Self::Board>)]) -> String;
}

/// One target's result as the POJ and text answers print it.
pub struct Tally<'a, G: Game = Solver> {
    pub(crate) name: Cow<'static, str>,
    /// The presses and whether they are proven fewest; `None` when the
    /// target cannot be reached.
    pub(crate) result: Option<(u64, bool)>,
    /// The fewest presses any member can have, as the search proved it
    /// (shown by kinds with [`Shown::SHOWS_LOWER_BOUND`]).
    pub(crate) lower_bound: u64,
    /// The press grid, when at hand (not for a streamed board).
    pub(crate) presses: Option<&'a G::Board>,
}

impl<'a> Tally<'a> {
    /// The tally of a solved two-state target.
    pub fn of(outcome: &'a crate::Outcome) -> Self {
        let solution = outcome.solution.as_ref();
        Tally {
            name: outcome.target.name().into(),
            result: solution.map(|s| (s.presses.count_ones() as u64, s.proven_minimal)),
            lower_bound: 0,
            presses: solution.map(|s| &s.presses),
        }
    }
}

/// The reachable target with the fewest presses (the first on a tie).
pub fn best_tally<'t, 'a, G: Game>(tallies: &'t [Tally<'a, G>]) -> Option<&'t Tally<'a, G>> {
    tallies.iter().filter(|t| t.result.is_some()).min_by_key(|t| t.result.map(|(presses, _)| presses))
}

/// Whether a note about target `name` is about the question answered: the
/// one target asked, or with several, the one answered (a note on the other
/// colour would be about a question nobody asked).
pub fn answers<G: Game>(name: &str, tallies: &[Tally<G>]) -> bool {
    tallies.len() == 1 || best_tally(tallies).is_some_and(|best| best.name == name)
}

/// The POJ answer: the fewest presses (of the reachable targets), or
/// `Impossible`.
pub fn poj_line(fewest: Option<u64>) -> Cow<'static, str> {
    match fewest {
        Some(presses) => format!("{presses}\n").into(),
        None => "Impossible\n".into(),
    }
}

/// A board's text answer after its `header`: a line per target, the best,
/// and the best's presses.
pub fn text_lines<G: Shown>(header: String, tallies: &[Tally<G>], graph: bool) -> String {
    let mut text = header;
    for tally in tallies {
        let name = &tally.name;
        text += &match tally.result {
            None => format!("  {name}: impossible\n"),
            Some((presses, true)) => format!("  {name}: {} (minimal)\n", super::presses(presses)),
            Some((presses, false)) if G::SHOWS_LOWER_BOUND => format!(
                "  {name}: {} (not proven minimal; at least {})\n",
                super::presses(presses),
                tally.lower_bound
            ),
            Some((presses, false)) => format!("  {name}: {} (not proven minimal)\n", super::presses(presses)),
        };
    }
    match best_tally(tallies) {
        None => text += "  best: impossible\n",
        Some(best) => {
            let presses = best.result.map_or(0, |(presses, _)| presses);
            text += &format!("  best: {}, {}\n", best.name, super::presses(presses));
            text += &match best.presses {
                _ if presses == 0 => format!("  {}: none\n", press_what(graph)),
                Some(grid) => G::press_line(grid, presses, graph),
                None => "  press (row,col): not listed for a streamed board (--output FILE writes them as an image)\n"
                    .into(),
            };
        }
    }
    text
}

/// What the press line lists: vertices on a graph, cells on a grid.
fn press_what(graph: bool) -> &'static str {
    if graph { "press vertex" } else { "press (row,col)" }
}

/// Most presses the text output lists by coordinates: more would bury the
/// answer (`--show` draws any number, `--output` writes them as an image).
pub const LISTED_PRESSES: usize = 256;

/// One board's answer, ready to print (and, as JSON, to serve: `lightsout
/// serve` answers with [`Report::json`] too), for either kind of game.
///
/// ```
/// use lightsout::present::{AnswerFormat, Report};
/// use lightsout::{Game, Method, Puzzle, Solver, Target, parse_boards};
///
/// let board = &parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "sample", None, None)?[0];
/// let game = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// let answer = game.solve(board, Target::EITHER)?;
/// let report = Report::new(1, &game, board, &answer);
/// assert_eq!(report.render(AnswerFormat::Poj, false), "4\n");
/// assert!(report.json().ends_with(r#""best":{"target":"white","presses":4}}"#));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub struct Report<'a, G: Shown = Solver> {
    pub(crate) index: usize,
    /// The game that answered.
    pub(crate) game: &'a G,
    pub(crate) board: &'a G::Board,
    pub(crate) answer: &'a Answer<G::Board>,
}

impl<'a, G: Shown> Report<'a, G> {
    /// The report of `answer`, what `game` answered for board `index`
    /// (counted from 1) `board`.
    pub fn new(index: usize, game: &'a G, board: &'a G::Board, answer: &'a Answer<G::Board>) -> Self {
        Report { index, game, board, answer }
    }

    /// Each target's result, as printed.
    pub fn tallies(&self) -> Vec<Tally<'_, G>> {
        self.game.tallies(self.answer)
    }

    /// The answer as `format` prints it (`show`: with the best's press grid
    /// and the board it reaches; JSON holds the grid already).
    pub fn render(&self, format: AnswerFormat, show: bool) -> String {
        let mut text = String::new();
        self.render_into(&mut text, format, show);
        text
    }

    /// [`render`](Self::render) appended to `text`: a stream of boards
    /// reuses one buffer (the classic 65,536 boards allocate nothing per
    /// answer for it).
    pub fn render_into(&self, text: &mut String, format: AnswerFormat, show: bool) {
        match format {
            AnswerFormat::Poj => self.poj_into(text, show),
            AnswerFormat::Text => *text += &self.text(show),
            AnswerFormat::Json => {
                *text += &self.json();
                text.push('\n');
            }
        }
    }

    /// The fewest presses, or `Impossible`.
    fn poj_into(&self, text: &mut String, show: bool) {
        let fewest = self.answer.best().map(|(_, best)| best.presses.presses());
        *text += &poj_line(fewest);
        if show {
            *text += &self.grids(&self.tallies());
        }
    }

    /// The header, a line per target, the best and its presses.
    pub fn text(&self, show: bool) -> String {
        let tallies = self.tallies();
        let header = self.game.header(self.index, self.board);
        let mut text = text_lines(header, &tallies, self.game.on_graph());
        if show {
            text += &self.grids(&tallies);
        }
        text
    }

    /// The best's press grid and the board it reaches (nothing when no
    /// target is reachable).
    fn grids(&self, tallies: &[Tally<G>]) -> String {
        let Some((name, presses)) = best_tally(tallies).and_then(|t| Some((&t.name, t.presses?))) else {
            return String::new();
        };
        let mut text = format!("presses (to {name}):\n");
        for line in self.game.press_lines(presses) {
            text += &line;
            text.push('\n');
        }
        if let Some(reached) = self.game.reached_lines(self.board, presses) {
            text += "reached:\n";
            for line in reached {
                text += &line;
                text.push('\n');
            }
        }
        text
    }

    /// The JSON object (without a line break).
    pub fn json(&self) -> String {
        self.game.answer_json(self.index, self.board, self.answer)
    }
}

impl Report<'_> {
    /// The reachable target needing the fewest presses, by name.
    pub fn best(&self) -> Option<(&'static str, &Solution)> {
        self.answer.best().map(|(target, s)| (target.name(), s))
    }

    /// `4 presses to white`, or `impossible`: a picture's title.
    pub fn best_summary(&self) -> String {
        match self.best() {
            None => "impossible".into(),
            Some((name, s)) => format!("{} to {name}", super::presses(s.presses.count_ones() as u64)),
        }
    }
}

/// One target's result as JSON, for every kind alike: `solvable`, the
/// `presses` counted, then the other fields of the [`Solution`]'s serde
/// form in their order, and its press set last as `solution` (lines, as
/// `solve` reads boards). A field added to `Solution` appears here by itself
/// (`null` for an unreachable target); the fields left out are
/// [`shown_in_json`]'s.
pub fn outcome_json<G: Shown>(
    solver: &G,
    solution: Option<&Solution<G::Board>>,
) -> serde_json::Map<String, Value> {
    let mut object = serde_json::Map::new();
    object.insert("solvable".into(), json!(solution.is_some()));
    object.insert("presses".into(), json!(solution.map(|s| s.presses.presses())));
    let shown = |name: &str| name != "presses" && shown_in_json::<G>(name);
    match solution {
        Some(s) => solution_fields(s, &mut object, shown),
        None => {
            // No solution to serialise: each field `null`, but
            // `proven_minimal`, false (as the answers have always said).
            for &name in serde_fields::<Solution<u8>>().iter().filter(|name| shown(name)) {
                let value = if name == "proven_minimal" { json!(false) } else { Value::Null };
                object.insert(name.into(), value);
            }
        }
    }
    // The press set is made JSON here, not serialised with the rest: its
    // lines (or, past K = 10, lists) move in without a copy.
    object.insert("solution".into(), solution.map_or(Value::Null, |s| solver.presses_json(&s.presses)));
    object
}

/// Whether a field of [`Solution`] is in the answer JSON: all but
/// `found_by` (worded in the notes on stderr instead), and for a game
/// that shows no lower bound (two states), `lower_bound`.
pub fn shown_in_json<G: Shown>(field: &str) -> bool {
    field != "found_by" && (G::SHOWS_LOWER_BOUND || field != "lower_bound")
}

/// Writes into `object` the fields of a solution's serde form that
/// `shown` keeps (not its press set: the caller writes it).
fn solution_fields<B>(
    solution: &Solution<B>,
    object: &mut serde_json::Map<String, Value>,
    shown: impl Fn(&str) -> bool,
) {
    // `found_by` is left out, and a stopped search's count of members
    // may pass u64, which a JSON value cannot hold: it is not serialised.
    let view = Solution { found_by: FoundBy::Search, ..solution.map_presses(|_| ()) };
    // A struct of numbers and booleans always has a JSON form: an error
    // cannot come, and would leave the fields out rather than stop.
    let _ = super::fields::write_fields(&view, object, shown);
}

/// The fields of `T`'s serde form, in order, as its derived `Deserialize`
/// names them to a deserializer (the one that asks here reads nothing).
fn serde_fields<T: DeserializeOwned>() -> &'static [&'static str] {
    /// A deserializer that only listens for a struct's field names.
    struct FieldNames<'a>(&'a mut &'static [&'static str]);

    impl<'de> Deserializer<'de> for FieldNames<'_> {
        type Error = serde::de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("field names only"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }

    let mut fields: &'static [&'static str] = &[];
    // Always an error: only the names were wanted.
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// The text answer's first line for two states: `board 1: 4x4, nullity 4`
/// (by the shape given: a streamed board is sized as asked).
pub fn two_state_header(index: usize, (rows, cols): (usize, usize), nullity: usize) -> String {
    format!("board {index}: {rows}x{cols}, nullity {nullity}\n")
}

impl Shown for Solver {
    const SHOWS_LOWER_BOUND: bool = false;

    fn target_name(&self, target: &Target) -> Cow<'static, str> {
        target.name().into()
    }

    fn tallies<'a>(&self, answer: &'a Answer) -> Vec<Tally<'a>> {
        answer.outcomes.iter().map(Tally::of).collect()
    }

    fn header(&self, index: usize, board: &Grid) -> String {
        match self.puzzle().graph() {
            // A graph's board is one row of its vertices: say so.
            Some(g) => {
                format!("board {index}: graph of {} vertices, nullity {}\n", g.vertex_count(), self.nullity())
            }
            None => two_state_header(index, (board.nrows(), board.ncols()), self.nullity()),
        }
    }

    fn on_graph(&self) -> bool {
        self.puzzle().graph().is_some()
    }

    /// As (row,col) from (1,1) at the top left, or by vertex on a graph.
    fn press_line(presses: &Grid, count: u64, graph: bool) -> String {
        if count > LISTED_PRESSES as u64 {
            return format!(
                "  press (row,col): not listed above {LISTED_PRESSES} presses (--output FILE writes them as an image)\n"
            );
        }
        let listed: Vec<String> = if graph {
            presses.row(0).iter_ones().map(|v| v.to_string()).collect()
        } else {
            (0..presses.nrows())
                .flat_map(|r| presses.row(r).iter_ones().map(move |c| format!("({},{})", r + 1, c + 1)))
                .collect()
        };
        format!("  {}: {}\n", press_what(graph), listed.join(" "))
    }

    fn press_lines(&self, presses: &Grid) -> Vec<String> {
        grid_lines(presses, 'x', '.')
    }

    fn reached_lines(&self, board: &Grid, presses: &Grid) -> Option<Vec<String>> {
        Some(grid_lines(&self.puzzle().apply(board, presses), 'b', 'w'))
    }

    fn check_json(&self, index: usize, verdicts: &[(Target, Option<Grid>)]) -> String {
        let named: Vec<(&str, Option<Grid>)> = verdicts.iter().map(|(t, y)| (t.name(), y.clone())).collect();
        super::check_json(index, self, &named)
    }

    fn presses_json(&self, presses: &Grid) -> Value {
        json!(grid_lines(presses, 'x', '.'))
    }

    fn board_lines(&self, board: &Grid) -> Vec<String> {
        grid_lines(board, 'b', 'w')
    }

    fn board_json(&self, board: &Grid) -> Value {
        json!(self.board_lines(board))
    }

    fn answer_json(&self, index: usize, board: &Grid, answer: &Answer) -> String {
        let named = |name: &str| {
            let outcome = answer.outcomes.iter().find(|o| o.target.name() == name);
            outcome.map_or(Value::Null, |o| Value::Object(outcome_json(self, o.solution.as_ref())))
        };
        let best = match answer.best() {
            None => json!({"target": null, "presses": null}),
            Some((target, s)) => json!({"target": target.name(), "presses": s.presses.count_ones()}),
        };
        let puzzle = self.puzzle();
        let mut object = json!({
            "board": index,
            "rows": board.nrows(),
            "cols": board.ncols(),
            "topology": puzzle_topology(puzzle),
            "rule": puzzle.rule().to_string(),
            "nullity": self.nullity(),
            "white": named("white"),
            "black": named("black"),
        });
        if let Some(g) = puzzle.graph() {
            object["graph"] = json!({"vertices": g.vertex_count(), "edges": g.edge_count()});
        }
        if answer.outcomes.iter().any(|o| matches!(o.target, Target::Board(_))) {
            object["target"] = named("target");
        }
        object["best"] = best;
        object.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zk::Modulus;
    use crate::{Method, Puzzle, StateGrid, StateSolver};

    fn keys(object: &serde_json::Map<String, Value>) -> Vec<&str> {
        object.keys().map(String::as_str).collect()
    }

    #[test]
    fn the_solution_fields_are_named_in_their_order() {
        assert_eq!(serde_fields::<Solution<u8>>(), ["presses", "proven_minimal", "lower_bound", "found_by"]);
    }

    #[test]
    fn an_unreachable_target_lists_the_fields_of_a_reachable_one() {
        let puzzle = Puzzle::new(2, 2).unwrap();
        let solver = Solver::new(&puzzle, Method::Auto, 36).unwrap();
        let solution = Solution::minimal(Grid::from_cell_values(2, 2, &[1, 0, 0, 0]));
        let reached = outcome_json(&solver, Some(&solution));
        assert_eq!(keys(&reached), ["solvable", "presses", "proven_minimal", "solution"]);
        assert_eq!(keys(&outcome_json(&solver, None)), keys(&reached));

        let states = StateSolver::new(&puzzle, Modulus::new(3).unwrap(), Method::Auto, 36, 1 << 30).unwrap();
        let solution = Solution::minimal(StateGrid::from_cell_values(2, 2, &[2, 0, 0, 1]));
        let reached = outcome_json(&states, Some(&solution));
        assert_eq!(keys(&reached), ["solvable", "presses", "proven_minimal", "lower_bound", "solution"]);
        assert_eq!((&reached["presses"], &reached["lower_bound"]), (&json!(3), &json!(3)));
        let unreached = outcome_json(&states, None);
        assert_eq!(keys(&unreached), keys(&reached));
        assert_eq!(
            Value::Object(unreached).to_string(),
            r#"{"solvable":false,"presses":null,"proven_minimal":false,"lower_bound":null,"solution":null}"#
        );
    }
}
