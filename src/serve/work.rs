//! Where the work runs: on tokio's blocking pool, at most [`Limits::jobs`]
//! jobs at once, each answered within [`Limits::time`].

use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio::time::{Instant, timeout_at};

use super::Limits;
use super::error::ApiError;

/// The server's shared state: its limits and its job slots.
#[derive(Clone)]
pub(super) struct App {
    pub(super) limits: Arc<Limits>,
    slots: Arc<Semaphore>,
}

impl App {
    pub(super) fn new(limits: Limits) -> Self {
        let slots = Arc::new(Semaphore::new(limits.jobs.max(1)));
        App { limits: Arc::new(limits), slots }
    }

    /// Runs `job` on the blocking pool once a slot is free, so that the
    /// async workers keep answering other requests meanwhile.
    ///
    /// The request is answered within the time limit: if no slot frees up
    /// in time, with 503; if the job is still running then, with a 422
    /// naming the `time` limit. A job cannot be stopped halfway, so it
    /// keeps its slot until it ends: abandoned work (a timed-out request, a
    /// page that aborted its fetch) never makes more than `jobs` run at
    /// once, and every job is bounded by the limits checked before it
    /// started.
    pub(super) async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Limits) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let time = self.limits.time;
        let deadline = Instant::now() + time;
        let slot = match timeout_at(deadline, self.slots.clone().acquire_owned()).await {
            Ok(Ok(slot)) => slot,
            Ok(Err(_)) => return Err(ApiError::Internal("the job slots were closed".into())),
            Err(_) => {
                return Err(ApiError::Busy(format!(
                    "the server stayed busy with other requests for {} s; try again",
                    time.as_secs_f64()
                )));
            }
        };
        let limits = self.limits.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            job(&limits)
        });
        match timeout_at(deadline, handle).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => Err(ApiError::Internal(format!("the work failed: {e}"))),
            Err(_) => Err(ApiError::limit(
                "time",
                format!(
                    "the work took longer than the server's time limit of {} s; ask for a smaller size or a lower \
                     max_nullity",
                    time.as_secs_f64()
                ),
            )),
        }
    }
}
