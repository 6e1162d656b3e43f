//! A worker's place in the coordinator's state: its slot, which holds the
//! worker's id and where it is in its life (never its process, which
//! `workers.rs` owns), and what it has been told.

use crate::state::Job;
use fuzz_core::worker::client::WorkerId;

/// Where a started worker is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Loading the library and initializing: it has not said hello.
    Loading,
    /// Said hello; its warm-up (the empty input, run before any other)
    /// runs.
    WarmingUp,
    /// Warmed up, ready for work. `cold`: its warm-up failed or was
    /// skipped, so its first input gets the warm-up's allowance.
    Working { cold: bool },
}

/// A slot's worker, as the coordinator's decisions see it (the process
/// itself is the shell's: coordinator.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Life {
    /// No worker: none started yet, or its death was handled and no
    /// other has taken its place.
    Vacant,
    /// A worker in this stage.
    Alive(Stage),
    /// A worker being killed (a hang, its memory), in the stage it was in:
    /// its death is awaited.
    Dying(Stage),
}

impl Life {
    /// The stage of a worker alive or dying.
    pub fn stage(self) -> Option<Stage> {
        match self {
            Life::Vacant => None,
            Life::Alive(s) | Life::Dying(s) => Some(s),
        }
    }

    /// The same life in another stage (a dying worker stays dying).
    fn to(self, stage: Stage) -> Life {
        match self {
            Life::Dying(_) => Life::Dying(stage),
            _ => Life::Alive(stage),
        }
    }

    /// Past its warm-up.
    pub fn warm(self) -> bool {
        matches!(self.stage(), Some(Stage::Working { .. }))
    }
}

/// One worker's place in the turn: what the coordinator knows of the
/// worker in it.
pub struct Slot {
    /// The spawn number of its worker: events carry it, and those of
    /// workers no longer in a slot (a turn before, a replaced one) are
    /// dropped.
    pub id: WorkerId,
    pub life: Life,
    pub job: Job,
    /// How many coverage features and corpus entries it has been told.
    pub synced: usize,
    pub shared: usize,
    /// How many known crash fingerprints it has been told.
    pub told: usize,
    /// Executions promised to its slice in flight, so that `-fuzztime Nx`
    /// is not overshot by slices running side by side.
    pub promised: u64,
    /// The input its crash handler said crashed the target, saved before
    /// the worker died (see [`State::on_crashing`](crate::state::State::on_crashing)).
    pub saved_early: Option<String>,
}

impl Slot {
    /// The slot of worker `id`, just started, which knows nothing yet.
    pub fn started(id: WorkerId) -> Slot {
        Slot {
            id,
            life: Life::Alive(Stage::Loading),
            job: Job::Idle,
            synced: 0,
            shared: 0,
            told: 0,
            promised: 0,
            saved_early: None,
        }
    }

    /// The slot now holds a fresh worker numbered `id`, which knows nothing
    /// yet; its job and the executions promised to it stay.
    pub fn restart(&mut self, id: WorkerId) {
        let job = std::mem::replace(&mut self.job, Job::Idle);
        *self = Slot {
            job,
            promised: self.promised,
            ..Slot::started(id)
        };
    }

    /// Its worker is gone.
    pub fn vacate(&mut self) {
        self.life = Life::Vacant;
    }

    /// Ready for work: said hello, warmed up, and not being killed. (A
    /// worker that died is not ready: its slot waits for a new one.)
    pub fn usable(&self) -> bool {
        matches!(self.life, Life::Alive(Stage::Working { .. }))
    }

    /// It said hello.
    pub fn said_hello(&mut self) {
        self.life = self.life.to(Stage::WarmingUp);
    }

    /// Its warm-up is over, `ok` or not.
    pub fn warmed(&mut self, ok: bool) {
        self.life = self.life.to(Stage::Working { cold: !ok });
    }

    /// It is being killed.
    pub fn dying(&mut self) {
        if let Life::Alive(s) = self.life {
            self.life = Life::Dying(s);
        }
    }
}
