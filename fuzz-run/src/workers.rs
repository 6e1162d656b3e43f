//! A target's worker processes, owned here alone: started, sent requests,
//! looked at for the hang watch, killed and reaped. The coordinator's
//! state knows each worker by its slot's id and life (state.rs); what to
//! do with them is decided there.

use crate::dispatch::{Kill, Look, Seen};
use fuzz_cli::CliError;
use fuzz_core::worker::client::{Death, Event, Killed, Spawn, Worker, WorkerId};
use fuzz_core::worker::protocol::Request;
use fuzz_core::worker::serve_args::ServeArgs;
use fuzz_core::worker::spare::Spare;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// How a target's workers are started.
pub struct Launcher {
    pub worker_bin: PathBuf,
    /// What every worker serves (the target and the warm-up set at each
    /// start).
    pub serve: ServeArgs,
    /// The workers' working directory: a Go package's.
    pub cwd: Option<PathBuf>,
    /// Room in shared memory for any input a mutation can make.
    pub capacity: usize,
    /// What every worker's environment has beyond the tool's
    /// (`fuzz_cli::sanitizer::serve_env`).
    pub env: Vec<fuzz_cli::sanitizer::EnvVar>,
    /// Shared memory files and stderr captures.
    pub dir: tempfile::TempDir,
    pub events: Sender<Event>,
    /// The worker that listed the library, until it is the first started
    /// (when it fits: see [`Spare::fits`]).
    pub spare: Option<Spare>,
}

/// The worker that listed the library (`targets::list`), and the scratch
/// directory its files are in: the first target's first worker and its
/// workers' scratch directory.
pub struct Listed {
    pub spare: Spare,
    pub dir: tempfile::TempDir,
}

/// A worker process, with what the hang watch last saw of it.
struct Process {
    worker: Worker,
    seen: Seen,
}

/// The processes of a turn's workers, by slot (`None` between a worker's
/// death and its replacement).
pub struct Workers {
    launcher: Launcher,
    processes: Vec<Option<Process>>,
    /// Workers started so far: the next one's number.
    spawned: usize,
}

impl Workers {
    pub fn new(launcher: Launcher) -> Workers {
        Workers {
            launcher,
            processes: Vec::new(),
            spawned: 0,
        }
    }

    pub fn worker_bin(&self) -> &Path {
        &self.launcher.worker_bin
    }

    /// Starts a worker of `target` in slot `w` (the next slot when `w` is
    /// one past the last), in place of the one there: its id.
    pub fn start(&mut self, w: usize, target: &str, warm_up: bool) -> Result<WorkerId, CliError> {
        let id = WorkerId(self.spawned);
        self.spawned += 1;
        let l = &mut self.launcher;
        let serve = ServeArgs {
            target: Some(target.to_string()),
            no_warm_up: !warm_up,
            ..l.serve.clone()
        };
        let spawn = Spawn {
            worker: &l.worker_bin,
            serve: &serve,
            dir: l.dir.path(),
            capacity: l.capacity,
            cwd: l.cwd.as_deref(),
            env: &l.env,
        };
        // The spare, when there is one that fits; a fresh worker when it
        // is not, or could not be told (it is gone then).
        let told = (l.spare.take())
            .filter(|spare| spare.fits(&spawn))
            .and_then(|spare| spare.serve(id, &spawn, l.events.clone()).ok());
        let worker = match told {
            Some(worker) => worker,
            None => Worker::spawn(id, &spawn, l.events.clone()).map_err(CliError::misuse)?,
        };
        let seen = Seen {
            execs: 0,
            at: Instant::now(),
        };
        let process = Some(Process { worker, seen });
        match self.processes.get_mut(w) {
            Some(slot) => *slot = process,
            None => self.processes.push(process),
        }
        Ok(id)
    }

    /// Sends slot `w`'s worker a request; its clock starts again. A worker
    /// gone meanwhile is passed over: its death is an event of its own.
    pub fn send(&mut self, w: usize, request: &Request) {
        if let Some(p) = self.processes.get_mut(w).and_then(Option::as_mut) {
            let _ = p.worker.send(request);
            p.seen.at = Instant::now();
        }
    }

    /// The input in slot `w`'s shared memory.
    pub fn input(&self, w: usize) -> Option<Vec<u8>> {
        self.process(w).map(|p| p.worker.input())
    }

    /// Slot `w`'s worker's resident memory in MiB.
    pub fn rss_mb(&self, w: usize) -> Option<u64> {
        self.process(w).and_then(|p| p.worker.rss_mb())
    }

    fn process(&self, w: usize) -> Option<&Process> {
        self.processes.get(w).and_then(Option::as_ref)
    }

    /// Slot `w`'s worker is gone: reaped, its files removed, and how it
    /// died. `None` when the slot has no worker.
    pub fn reap(&mut self, w: usize) -> Option<Death> {
        let Process { mut worker, .. } = self.processes.get_mut(w).and_then(Option::take)?;
        let death = worker.death();
        self.clean_up(&worker);
        Some(death)
    }

    /// One look at each live worker, with what was seen of it before.
    pub fn looks(&self, rss_limit_mb: u64) -> Vec<(usize, Look, Seen)> {
        let now = Instant::now();
        (self.processes.iter().enumerate())
            .filter_map(|(w, p)| {
                let p = p.as_ref()?;
                let killed = p.worker.killed;
                let look = Look {
                    execs: p.worker.shm.execs(),
                    running: p.worker.shm.running(),
                    rss_mb: (rss_limit_mb > 0 && killed.is_none())
                        .then(|| p.worker.rss_mb())
                        .flatten(),
                    killed,
                    now,
                };
                Some((w, look, p.seen))
            })
            .collect()
    }

    /// Keeps what the watch has seen of slot `w`'s worker and carries out
    /// its verdict: true when the worker is being killed.
    pub fn apply(&mut self, w: usize, seen: Seen, kill: Option<Kill>) -> bool {
        let Some(p) = self.processes.get_mut(w).and_then(Option::as_mut) else {
            return false;
        };
        p.seen = seen;
        match kill {
            Some(Kill::OutOfMemory(rss)) => p.worker.kill(Killed::OutOfMemory(rss)),
            Some(Kill::Timeout) => p.worker.time_out(),
            None => return false,
        }
        true
    }

    /// Kills every worker (their deaths come back as events): the slots
    /// that had one.
    pub fn kill_all(&mut self) -> Vec<usize> {
        (self.processes.iter_mut().enumerate())
            .filter_map(|(w, p)| {
                p.as_mut()?.worker.kill(Killed::Stopping);
                Some(w)
            })
            .collect()
    }

    /// Stops every worker: killed, reaped, its files removed.
    pub fn stop_all(&mut self) {
        self.kill_all();
        for p in std::mem::take(&mut self.processes).into_iter().flatten() {
            self.clean_up(&p.worker);
            p.worker.reap();
        }
    }

    /// Removes what a worker left in the spawn directory.
    fn clean_up(&self, w: &Worker) {
        let _ = std::fs::remove_file(&w.shm_path);
        let _ = std::fs::remove_file(&w.capture_path);
    }
}
