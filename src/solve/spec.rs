//! Where the fronts make a game: what a front asks for (the puzzle, its
//! states, how far to search, the memory it may take) and the defaults
//! of what it does not ask, the same for the command line, the server
//! and Python. (The command line's long searches and K-state merge, and
//! the library's `verify`, two-state `analyze` and tables, still make
//! theirs with the engines' own constructors.)

use crate::error::Error;
use crate::model::{Grid, Puzzle, StateGrid};
use crate::zk::Modulus;
use crate::{Method, Solver, StateSolver, StateTarget, Target};

use super::DEFAULT_MAX_NULLITY;
use super::answer::Board;
use super::game::{Game, Limits, TargetOf};
use super::states::DEFAULT_WORK_LOG2;

/// A game as a front asks for it. The defaults: [`Method::Auto`], no
/// memory limit, a null space searched exhaustively up to nullity
/// [`DEFAULT_MAX_NULLITY`] (K states: cosets of up to 2^36 members), and
/// for K states a limit on a board's work over all its targets of
/// 2^[`DEFAULT_WORK_LOG2`] members, past which the answers are marked
/// not proven minimal: a default K-state solve answers in about a second
/// instead of minutes. Asking a `max_nullity` lifts that limit: each
/// target then gets its 2^`max_nullity` members.
///
/// # Example
/// ```
/// use lightsout::solve::{GameSpec, Made};
/// use lightsout::zk::Modulus;
/// use lightsout::{Puzzle, StateSolver};
///
/// let spec = GameSpec::new(Puzzle::new(5, 5).unwrap(), Modulus::new(3).unwrap());
/// let game = StateSolver::make(&spec).unwrap();
/// assert_eq!(game.work_limit(), Some(26)); // the default's limit
/// let asked = StateSolver::make(&spec.asking_max_nullity(20)).unwrap();
/// assert_eq!(asked.work_limit(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSpec {
    pub puzzle: Puzzle,
    pub states: Modulus,
    pub method: Method,
    /// Two states: the largest null space searched exhaustively (its
    /// dimension); K states: the largest coset searched (log2 of its
    /// members), per target.
    pub max_nullity: usize,
    /// Bytes the factored game may take.
    pub max_memory: u64,
    /// K states: log2 of the members a board's exhaustive searches may
    /// weigh over all its targets (`None`: each target its own budget).
    pub work_limit: Option<u32>,
}

impl GameSpec {
    /// The game of `puzzle` with `states` per cell, with the defaults.
    pub fn new(puzzle: Puzzle, states: Modulus) -> GameSpec {
        GameSpec {
            puzzle,
            states,
            method: Method::Auto,
            max_nullity: DEFAULT_MAX_NULLITY,
            max_memory: u64::MAX,
            work_limit: Some(DEFAULT_WORK_LOG2),
        }
    }

    /// The two-state game of `puzzle`, with the defaults.
    pub fn two_states(puzzle: Puzzle) -> GameSpec {
        GameSpec::new(puzzle, Modulus::TWO)
    }

    /// Searches up to `max_nullity` because the user asked for it: every
    /// target gets its 2^`max_nullity` members (no work limit).
    pub fn asking_max_nullity(self, max_nullity: usize) -> GameSpec {
        GameSpec { max_nullity, work_limit: None, ..self }
    }

    /// [`asking_max_nullity`](Self::asking_max_nullity) when `asked`,
    /// else the default's budget capped at `ceiling` (a server's limit).
    pub fn max_nullity_or(self, asked: Option<usize>, ceiling: usize) -> GameSpec {
        match asked {
            Some(d) => self.asking_max_nullity(d),
            None => GameSpec { max_nullity: self.max_nullity.min(ceiling), ..self },
        }
    }

    /// Searches up to `max_nullity`, keeping the work limit as it is (a
    /// budget a front sets for its own reasons, not a user's ask).
    pub fn with_max_nullity(self, max_nullity: usize) -> GameSpec {
        GameSpec { max_nullity, ..self }
    }

    pub fn with_method(self, method: Method) -> GameSpec {
        GameSpec { method, ..self }
    }

    pub fn with_max_memory(self, max_memory: u64) -> GameSpec {
        GameSpec { max_memory, ..self }
    }

    /// The same game on another puzzle (a board of another shape).
    pub fn with_puzzle(&self, puzzle: Puzzle) -> GameSpec {
        GameSpec { puzzle, ..self.clone() }
    }
}

/// A target as a front reads it (a word, a number, a board), before the
/// kind of game is known: [`Made::targets_of`] makes it the game's targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskedTarget<'a> {
    /// `any`: every uniform board; the lightest answer wins (the two-state
    /// word `either` is a [`Colour`](Self::Colour) naming both).
    Any,
    /// A colour word of the two-state game (`white`, `black`, `either`) and
    /// the targets it names, as the fronts read it with
    /// [`colour_targets`](crate::present::colour_targets).
    Colour { word: &'a str, targets: &'static [Target] },
    /// A uniform state, below K (two states: 0 white, 1 black).
    State(u8),
    /// A board to reach: its shape and cell values, row by row.
    Board { rows: usize, cols: usize, cells: &'a [u8] },
}

/// A game made from a [`GameSpec`]: [`Solver`] for two states,
/// [`StateSolver`] for K.
pub trait Made: Game + Sized {
    /// The targets `asked` names in a game of `states` states.
    ///
    /// # Example
    /// ```
    /// use lightsout::solve::{AskedTarget, Made};
    /// use lightsout::zk::Modulus;
    /// use lightsout::{Solver, StateSolver, StateTarget, Target};
    ///
    /// let two = Modulus::new(2).unwrap();
    /// assert_eq!(Solver::targets_of(&AskedTarget::State(1), two)?, [Target::Black]);
    /// assert_eq!(Solver::targets_of(&AskedTarget::Any, two)?, [Target::White, Target::Black]);
    /// let three = Modulus::new(3).unwrap();
    /// assert_eq!(StateSolver::targets_of(&AskedTarget::Any, three)?.len(), 3);
    /// let white = AskedTarget::Colour { word: "white", targets: &[Target::White] };
    /// assert!(StateSolver::targets_of(&white, three).is_err());
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadInput`] for what this game has no target for: a colour
    /// word with K states, a state of K or more, a board whose cells are
    /// not `rows × cols` values below K.
    fn targets_of(asked: &AskedTarget, states: Modulus) -> Result<Vec<TargetOf<Self>>, Error>;

    /// Factors `spec`'s puzzle.
    ///
    /// # Errors
    /// The game's own: [`Error::Memory`] over `max_memory`,
    /// [`Error::Unsupported`] for a method that cannot serve the puzzle.
    fn make(spec: &GameSpec) -> Result<Self, Error>;

    /// [`make`](Self::make), the factoring stopped by `limits` where it can
    /// take long (the elimination of a K-state press matrix: seconds).
    ///
    /// # Errors
    /// As [`make`](Self::make), and [`Error::Limit`] when stopped.
    fn make_within(spec: &GameSpec, limits: &Limits) -> Result<Self, Error> {
        let _ = limits;
        Self::make(spec)
    }

    /// Whether one board's search may take long: more than 2^12 members
    /// to weigh (past the Gray-code walk), so that it should be stoppable
    /// and not share the cores with other boards.
    fn searches_long(&self) -> bool;
}

/// Refuses a state of `states` or more.
fn below(state: u8, states: Modulus) -> Result<u8, Error> {
    let top = states.get() - 1;
    match state <= top {
        true => Ok(state),
        false => Err(Error::BadInput(format!("the target state is 0 to {top}, got {state}"))),
    }
}

/// The target board `rows × cols` of these cells, refused unless they are
/// that many, each below `states` (a caller's board is never indexed past
/// its end, nor a cell of 2 read as white).
fn target_board<B: Board>(rows: usize, cols: usize, cells: &[u8], states: Modulus) -> Result<B, Error> {
    if rows.checked_mul(cols) != Some(cells.len()) {
        return Err(Error::BadInput(format!(
            "the target board is {rows}x{cols} but {} cells were given",
            cells.len()
        )));
    }
    if let Some(&state) = cells.iter().find(|&&s| s >= states.get()) {
        below(state, states)?;
    }
    Ok(B::from_cell_values(rows, cols, cells))
}

impl Made for Solver {
    fn targets_of(asked: &AskedTarget, states: Modulus) -> Result<Vec<Target>, Error> {
        Ok(match *asked {
            AskedTarget::Any => Target::EITHER.to_vec(),
            AskedTarget::Colour { targets, .. } => targets.to_vec(),
            AskedTarget::State(state) => match below(state, states)? {
                0 => vec![Target::White],
                _ => vec![Target::Black],
            },
            AskedTarget::Board { rows, cols, cells } => {
                vec![Target::Board(target_board::<Grid>(rows, cols, cells, states)?)]
            }
        })
    }

    fn make(spec: &GameSpec) -> Result<Solver, Error> {
        Solver::with_memory_limit(&spec.puzzle, spec.method, spec.max_nullity, spec.max_memory)
    }

    fn searches_long(&self) -> bool {
        super::minimal::ExactEngine::for_nullity(self.nullity()) != super::minimal::ExactEngine::Walk
    }
}

impl Made for StateSolver {
    fn targets_of(asked: &AskedTarget, k: Modulus) -> Result<Vec<StateTarget>, Error> {
        Ok(match *asked {
            AskedTarget::Any => StateTarget::any(k),
            AskedTarget::Colour { word, .. } => {
                return Err(Error::BadInput(format!(
                    "target '{word}' names a colour of the two-state game; with {k} states give a state 0 to \
                     {}, 'any' or a board",
                    k.get() - 1
                )));
            }
            AskedTarget::State(state) => vec![StateTarget::Uniform(below(state, k)?)],
            AskedTarget::Board { rows, cols, cells } => {
                vec![StateTarget::Board(target_board::<StateGrid>(rows, cols, cells, k)?)]
            }
        })
    }

    fn make(spec: &GameSpec) -> Result<StateSolver, Error> {
        Self::make_within(spec, &Limits::NONE)
    }

    fn make_within(spec: &GameSpec, limits: &Limits) -> Result<StateSolver, Error> {
        let budget = u32::try_from(spec.max_nullity).unwrap_or(u32::MAX);
        let (puzzle, states, method, memory) = (&spec.puzzle, spec.states, spec.method, spec.max_memory);
        let game = StateSolver::new_within(puzzle, states, method, budget, memory, limits)?;
        Ok(game.with_work_limit(spec.work_limit))
    }

    fn searches_long(&self) -> bool {
        self.kernel_size_log2() >= super::minimal::TRANSFORM_FROM as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default a front gets when it asks nothing, and what asking
    /// changes: the one place the fronts' defaults come from.
    #[test]
    fn defaults_and_what_asking_changes() {
        let spec = GameSpec::two_states(Puzzle::new(4, 4).unwrap());
        assert_eq!((spec.max_nullity, spec.work_limit, spec.max_memory), (36, Some(26), u64::MAX));
        let asked = spec.clone().max_nullity_or(Some(20), 30);
        assert_eq!((asked.max_nullity, asked.work_limit), (20, None));
        let capped = spec.clone().max_nullity_or(None, 30);
        assert_eq!((capped.max_nullity, capped.work_limit), (30, Some(26)));
        assert!(!Solver::make(&spec).unwrap().searches_long());
        assert!(Solver::make(&spec.with_puzzle(Puzzle::new(19, 19).unwrap())).unwrap().searches_long());
    }

    /// A caller's target board is checked, never indexed past its end nor
    /// read with a cell of K or more (review of 5b23d5c).
    #[test]
    fn a_bad_target_board_is_an_error_not_a_panic() {
        let (two, three) = (Modulus::new(2).unwrap(), Modulus::new(3).unwrap());
        let short = AskedTarget::Board { rows: 2, cols: 2, cells: &[0, 1, 0] };
        assert!(matches!(Solver::targets_of(&short, two), Err(Error::BadInput(_))));
        assert!(matches!(StateSolver::targets_of(&short, three), Err(Error::BadInput(_))));
        let huge = AskedTarget::Board { rows: usize::MAX, cols: 2, cells: &[] };
        assert!(Solver::targets_of(&huge, two).is_err());
        let twos = AskedTarget::Board { rows: 1, cols: 2, cells: &[0, 2] };
        let err = Solver::targets_of(&twos, two).unwrap_err().to_string();
        assert!(err.contains("the target state is 0 to 1, got 2"), "{err}");
        assert_eq!(StateSolver::targets_of(&twos, three).unwrap().len(), 1);
        let [Target::Board(grid)] =
            &Solver::targets_of(&AskedTarget::Board { rows: 1, cols: 2, cells: &[1, 0] }, two).unwrap()[..]
        else {
            panic!("one board target")
        };
        assert_eq!(grid.cell_values(), [1, 0]);
    }
}
