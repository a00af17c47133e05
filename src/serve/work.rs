//! Where the work runs: on tokio's blocking pool, at most [`Limits::jobs`]
//! jobs at once in each of two lanes, each answered within [`Limits::time`].
//! Small two-state boards have a lane of their own ([`Lane::Quick`]), so
//! that the page and small solves stay quick while long work holds every
//! slot of the other.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Semaphore;
use tokio::time::{Instant, timeout_at};

use super::Limits;
use super::error::ApiError;

/// The server's shared state: its limits and its job slots, a set for
/// each [`Lane`].
#[derive(Clone)]
pub(super) struct App {
    pub(super) limits: Arc<Limits>,
    slots: Arc<Semaphore>,
    quick_slots: Arc<Semaphore>,
}

/// Which job slots a request waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lane {
    /// Work whose cost the request alone does not bound well: tables,
    /// analyses, hardest boards, large boards, K states, graphs.
    Long,
    /// A two-state board of at most [`QUICK_CELLS`] cells: factoring is
    /// microseconds, and the search at most 2^[`Limits::max_nullity`]
    /// members of 16 words (2^24 by default: a fraction of a second on one
    /// core), so a quick request never waits long behind another.
    Quick,
}

/// Most cells of a board solved or checked in the quick lane (32x32).
pub(super) const QUICK_CELLS: usize = 1 << 10;

impl Lane {
    /// The lane of a request about `board` (rows as the API reads them)
    /// with `states`, on a grid (`graph` none).
    pub(super) fn of_board(board: &serde_json::Value, states: Option<u32>, graph: Option<&str>) -> Lane {
        let two_states = states.is_none_or(|k| k == 2);
        match graph.is_none() && two_states && board_cells(board).is_some_and(|n| n <= QUICK_CELLS) {
            true => Lane::Quick,
            false => Lane::Long,
        }
    }
}

/// The cells of a board as the API takes it (a list of rows, strings or
/// lists of numbers, or one string of lines), counted generously (a row's
/// bytes): `None` for anything else, which the reader will refuse.
fn board_cells(board: &serde_json::Value) -> Option<usize> {
    use serde_json::Value;
    let row = |r: &Value| match r {
        Value::String(s) => Some(s.len()),
        Value::Array(cells) => Some(cells.len()),
        _ => None,
    };
    match board {
        Value::Array(rows) => rows.iter().try_fold(0usize, |n, r| Some(n.saturating_add(row(r)?))),
        Value::String(s) => Some(s.len()),
        _ => None,
    }
}

/// What a job is given: the limits, and a way to learn that its answer is
/// no longer wanted.
pub(super) struct Job {
    pub(super) limits: Arc<Limits>,
    deadline: std::time::Instant,
    abandoned: Arc<AtomicBool>,
    /// What a request past the time limit could ask for instead.
    advice: &'static str,
}

impl Job {
    /// Whether to stop: the time limit has passed, or the request is gone
    /// (its client disconnected, or the page aborted its fetch). Work long
    /// enough to need it checks between its parts.
    pub(super) fn should_stop(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed) || std::time::Instant::now() >= self.deadline
    }

    /// The answer to this job when it stops at the time limit.
    pub(super) fn timed_out(&self) -> ApiError {
        time_limit(self.limits.time, self.advice)
    }
}

impl Job {
    /// Runs `work` with the library's limits for this job: stopped when
    /// the request is abandoned, and timed to end a little before the
    /// deadline so that what it found (bounds, say) is still answered.
    pub(super) fn with_search_limits<T>(&self, work: impl FnOnce(&crate::solve::Limits) -> T) -> T {
        self.with_search_limits_for(0, work)
    }

    /// Runs `work` (factoring a game, say) within the library's limits for
    /// this job; an error it returns once they have stopped it is answered
    /// as the time limit, the rest as themselves.
    pub(super) fn stoppable<T>(
        &self,
        work: impl FnOnce(&crate::solve::Limits) -> Result<T, crate::Error>,
    ) -> Result<T, ApiError> {
        self.with_search_limits(|limits| {
            let stopped = limits.stopped_from_now();
            match work(limits) {
                Err(_) if stopped() || self.should_stop() => Err(self.timed_out()),
                done => done.map_err(ApiError::from),
            }
        })
    }

    /// [`with_search_limits`](Self::with_search_limits) for work whose
    /// answer writes `cells` cells (press sets, boards): the time to write
    /// them is kept back too.
    pub(super) fn with_search_limits_for<T>(
        &self,
        cells: usize,
        work: impl FnOnce(&crate::solve::Limits) -> T,
    ) -> T {
        let left = self.deadline.saturating_duration_since(std::time::Instant::now());
        let writing = RENDER_TIME_PER_CELL.saturating_mul(u32::try_from(cells).unwrap_or(u32::MAX));
        let time_limit = Some(left.saturating_sub(ANSWER_MARGIN + writing));
        work(&crate::solve::Limits { stop: Some(&self.abandoned), time_limit })
    }
}

/// Time kept back from a stoppable search to build and send its answer.
const ANSWER_MARGIN: std::time::Duration = std::time::Duration::from_millis(500);

/// Time kept back per cell of the answer's press sets: the JSON of 116
/// press sets of 256x256 cells (7.6 million numbers) took 2.1 s to write
/// at load 9 on 2 cores (280 ns a cell).
const RENDER_TIME_PER_CELL: std::time::Duration = std::time::Duration::from_nanos(400);

/// Marks the job abandoned when the request's future ends, whether it was
/// answered, timed out or dropped with its connection.
struct AbandonOnDrop(Arc<AtomicBool>);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl App {
    pub(super) fn new(limits: Limits) -> Self {
        let slots = Arc::new(Semaphore::new(limits.jobs.max(1)));
        let quick_slots = Arc::new(Semaphore::new(limits.jobs.max(1)));
        App { limits: Arc::new(limits), slots, quick_slots }
    }

    /// Runs `job` on the blocking pool once a slot of `lane` is free, so
    /// that the async workers keep answering other requests meanwhile.
    ///
    /// The request is answered within the time limit: if no slot frees up
    /// in time, with 503; if the job is still running then, with a 422
    /// naming the `time` limit and `advice`, what the request could ask for
    /// instead. The job keeps its slot until it returns, so abandoned work
    /// never makes more than `jobs` run at once: every search stops by the
    /// library's [`Limits`](crate::solve::Limits) that
    /// [`Job::with_search_limits`] gives it, a little before the deadline,
    /// and answers what it found; tables stop at their next check of
    /// [`Job::should_stop`], or inside a size's elimination; K-state
    /// factoring stops by the same limits ([`Job::stoppable`]), checked
    /// every few milliseconds; the rest (two-state factoring) is short by
    /// the limits checked before it started.
    pub(super) async fn run_in<T, F>(&self, lane: Lane, advice: &'static str, job: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Job) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let time = self.limits.time;
        let slots = if lane == Lane::Quick { &self.quick_slots } else { &self.slots };
        let deadline = Instant::now() + time;
        let abandoned = AbandonOnDrop(Arc::new(AtomicBool::new(false)));
        let slot = match timeout_at(deadline, slots.clone().acquire_owned()).await {
            Ok(Ok(slot)) => slot,
            Ok(Err(_)) => return Err(ApiError::Internal("the job slots were closed".into())),
            Err(_) => {
                return Err(ApiError::Busy(format!(
                    "the server stayed busy with other requests for {} s; try again",
                    time.as_secs_f64()
                )));
            }
        };
        let context = Job {
            limits: self.limits.clone(),
            deadline: deadline.into_std(),
            abandoned: abandoned.0.clone(),
            advice,
        };
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            job(&context)
        });
        match timeout_at(deadline, handle).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => Err(ApiError::Internal(format!("the work failed: {e}"))),
            Err(_) => Err(time_limit(time, advice)),
        }
    }
}

/// The answer to work that ran past the time limit, with what the request
/// could ask for instead (in the words of the page and the API).
fn time_limit(time: std::time::Duration, advice: &str) -> ApiError {
    ApiError::limit(
        "time",
        format!(
            "the work took longer than the server's time limit of {} s; ask for {advice}",
            time.as_secs_f64()
        ),
    )
}
