//! Worker processes, as the tools that drive them see them (fuzz-run,
//! fuzz-minimize, fuzz-corpus merge: only fuzz-worker loads targets).
//!
//! Each worker is a `fuzz-worker serve` process in its own process group
//! (a Ctrl-C at the terminal reaches only the coordinator), with requests on
//! its fd 3, answers on its fd 4, stderr in a capture file the coordinator
//! reads when the worker dies, and a shared memory file holding the input
//! it is executing. A reader thread per worker turns its answers, and its
//! end, into events on one channel, so the coordinator's loop is a single
//! `recv_timeout`.

use crate::worker::crash::DeathKind;
use crate::worker::protocol::{self, Request, Response, TargetDesc};
use crate::worker::serve_args::{ServeArgs, FD_IN, FD_OUT};
use crate::worker::shm::Shm;
use nix::sys::prctl;
use nix::sys::signal::{self, Signal};
use nix::unistd::{getppid, setpgid, sysconf, Pid, SysconfVar};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Something that happened to a worker.
pub enum Event {
    Answer(WorkerId, Response),
    /// The worker's answer pipe closed: it exited or died.
    Gone(WorkerId),
    /// The worker sent something that is not the protocol.
    Garbled(WorkerId, String),
}

/// A worker's spawn number, unique within its tool's run: its events
/// carry it, so that those of a worker since replaced can be told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorkerId(pub usize);

impl std::fmt::Display for WorkerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Why the coordinator killed a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Killed {
    Timeout,
    OutOfMemory(u64),
    Stopping,
}

/// How a worker process ended.
pub struct Death {
    /// `SIGSEGV`, `asan: heap-buffer-overflow`, `timeout`, …
    pub kind: DeathKind,
    /// What it wrote to stderr since its current request began.
    pub report: String,
    /// The input it was executing, from shared memory.
    pub input: Vec<u8>,
    /// The target's custom mutator call it died in, if it died in one
    /// (`input` is then the input being mutated).
    pub mutation: Option<crate::worker::shm::Mutation>,
    /// A cross-over's other entry, when it died in a cross-over.
    pub other: Option<Vec<u8>>,
}

pub struct Worker {
    pub index: WorkerId,
    child: Child,
    requests: File,
    capture: File,
    capture_mark: u64,
    /// Its stderr capture file's path.
    pub capture_path: PathBuf,
    pub shm: Shm,
    pub shm_path: PathBuf,
    pub killed: Option<Killed>,
    /// When it was asked for its stack after a timeout.
    asked: Option<Instant>,
}

/// The signal that asks a worker where its target is after a timeout
/// (fuzz-worker's `crash::TIMEOUT_SIGNAL`): it writes its stack, the site
/// of the hang, and dies.
pub const STACK_SIGNAL: i32 = libc::SIGUSR1;

/// How long a worker asked for its stack has to answer before SIGKILL.
pub const STACK_GRACE: Duration = Duration::from_millis(500);

/// A variable of a worker's environment, set beyond the tool's own.
pub type EnvVar = (OsString, OsString);

pub struct Spawn<'a> {
    pub worker: &'a Path,
    /// What the worker serves; its `shm` and descriptors are filled in
    /// here.
    pub serve: &'a ServeArgs,
    /// Where its shared memory and stderr capture go.
    pub dir: &'a Path,
    pub capacity: usize,
    /// The worker's working directory, when not the tool's: a Go
    /// package's, where its tests expect to run (as go test runs them).
    pub cwd: Option<&'a Path>,
    /// Variables set in its environment beyond the tool's: the sanitizer
    /// runtime preloaded, when its library needs it (`fuzz_cli::sanitizer`).
    pub env: &'a [EnvVar],
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?)
}

/// A `fuzz-worker serve` process just started: its request and answer
/// pipes.
pub(crate) struct Launched {
    pub child: Child,
    pub requests: File,
    pub answers: File,
}

/// A worker's stderr capture file, and where its report starts.
pub(crate) struct Capture {
    pub file: File,
    pub path: PathBuf,
    /// Its length before the worker started: what the worker writes
    /// from its start on is its report.
    pub mark: u64,
}

impl Capture {
    /// The capture file at `path`, opened to be appended to and read.
    pub fn open(path: PathBuf) -> Result<Capture, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mark = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(Capture { file, path, mark })
    }
}

/// SIGKILL to a worker's process group, and to the worker itself, should
/// it not have set its group yet.
pub(crate) fn kill_group(child: &Child) {
    let pid = Pid::from_raw(child.id() as i32);
    let _ = signal::killpg(pid, Signal::SIGKILL);
    let _ = signal::kill(pid, Signal::SIGKILL);
}

/// Starts `worker serve` with `args` (its descriptors set here), its
/// stderr going to `capture`.
pub(crate) fn launch(
    worker: &Path,
    args: &ServeArgs,
    env: &[EnvVar],
    cwd: Option<&Path>,
    capture: &File,
) -> Result<Launched, String> {
    let (req_r, req_w) = pipe().map_err(|e| format!("pipe: {e}"))?;
    let (resp_r, resp_w) = pipe().map_err(|e| format!("pipe: {e}"))?;
    let args = ServeArgs {
        fd_in: FD_IN,
        fd_out: FD_OUT,
        ..args.clone()
    };
    let mut cmd = Command::new(worker);
    cmd.args(args.to_args())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(capture.try_clone().map_err(|e| e.to_string())?);
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    let (a, b) = (req_r.as_raw_fd(), resp_w.as_raw_fd());
    let parent = Pid::this();
    // The descriptors are moved with raw libc calls: nix would have
    // raw numbers wrapped in borrowed and owned descriptors (unsafe
    // too, and an OwnedFd of fd 3 would close it when dropped). The
    // nix calls here allocate nothing.
    // SAFETY: only async-signal-safe calls between fork and exec: move
    // the pipe ends out of the way, onto fds 3 and 4 (dup2 clears
    // close-on-exec), into a process group of its own, and ask for
    // SIGKILL when the parent dies, so that no worker outlives its
    // tool, even one killed with SIGKILL. The signal comes when the
    // thread that spawned the worker exits: the tools spawn workers
    // from their main thread, which lives as long as they do. A parent
    // that died before prctl took effect is caught by getppid.
    unsafe {
        cmd.pre_exec(move || {
            if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || getppid() != parent {
                libc::_exit(1);
            }
            let a2 = libc::fcntl(a, libc::F_DUPFD, 100);
            let b2 = libc::fcntl(b, libc::F_DUPFD, 100);
            if a2 < 0 || b2 < 0 || libc::dup2(a2, FD_IN) < 0 || libc::dup2(b2, FD_OUT) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(a2);
            libc::close(b2);
            let _ = setpgid(Pid::from_raw(0), Pid::from_raw(0));
            Ok(())
        });
    }
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", worker.display()))?;
    drop(req_r);
    drop(resp_w);
    Ok(Launched {
        child,
        requests: File::from(req_w),
        answers: File::from(resp_r),
    })
}

impl Worker {
    /// Starts worker `index` and its reader thread.
    pub fn spawn(index: WorkerId, s: &Spawn, events: Sender<Event>) -> Result<Worker, String> {
        let shm_path = s.dir.join(format!("worker{index}.shm"));
        let _ = std::fs::remove_file(&shm_path);
        let shm = Shm::create(&shm_path, s.capacity).map_err(|e| e.to_string())?;
        let capture_path = s.dir.join(format!("worker{index}.stderr"));
        let capture = Capture::open(capture_path)?;
        let args = ServeArgs {
            shm: shm_path.clone(),
            ..s.serve.clone()
        };
        let launched = launch(s.worker, &args, s.env, s.cwd, &capture.file)?;
        Worker::attach(index, launched, capture, shm, shm_path, events)
    }

    /// A started worker, with its reader thread.
    pub(crate) fn attach(
        index: WorkerId,
        launched: Launched,
        capture: Capture,
        shm: Shm,
        shm_path: PathBuf,
        events: Sender<Event>,
    ) -> Result<Worker, String> {
        let Launched {
            mut child,
            requests,
            answers,
        } = launched;
        let reader = std::thread::Builder::new()
            .name(format!("worker{index}"))
            .spawn(move || {
                for line in BufReader::new(answers).lines() {
                    let Ok(line) = line else { break };
                    let event = match protocol::from_line::<Response>(&line) {
                        Ok(r) => Event::Answer(index, r),
                        Err(e) => Event::Garbled(index, e),
                    };
                    if events.send(event).is_err() {
                        return;
                    }
                }
                let _ = events.send(Event::Gone(index));
            });
        if let Err(e) = reader {
            // No one would ever hear from it: it goes at once.
            kill_group(&child);
            let _ = child.wait();
            return Err(format!("worker {index}: no reader thread: {e}"));
        }
        Ok(Worker {
            index,
            child,
            requests,
            capture: capture.file,
            capture_mark: capture.mark,
            capture_path: capture.path,
            shm,
            shm_path,
            killed: None,
            asked: None,
        })
    }

    /// Sends a request; the start of its stderr report is marked.
    pub fn send(&mut self, request: &Request) -> Result<(), String> {
        // The capture file starts afresh with each request (it is written
        // in append mode), so it never grows past one request's output.
        let _ = self.capture.set_len(0);
        self.capture_mark = 0;
        self.requests
            .write_all(protocol::to_line(request).as_bytes())
            .map_err(|e| format!("worker {}: {e}", self.index))
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// The worker ran past its time limit: it is asked for its stack (where
    /// the input was when the limit struck: the site of the hang), and
    /// killed if it has not died of that within [`STACK_GRACE`]. Call
    /// again until it is gone.
    pub fn time_out(&mut self) {
        match self.asked {
            None => {
                self.killed = Some(Killed::Timeout);
                self.asked = Some(Instant::now());
                let _ = signal::kill(
                    Pid::from_raw(self.pid()),
                    Signal::try_from(STACK_SIGNAL).ok(),
                );
            }
            Some(t) if t.elapsed() > STACK_GRACE => self.kill(Killed::Timeout),
            Some(_) => {}
        }
    }

    /// Kills the worker's whole process group.
    pub fn kill(&mut self, why: Killed) {
        if self.killed.is_none() {
            self.killed = Some(why);
        }
        kill_group(&self.child);
    }

    /// Resident memory in MiB.
    pub fn rss_mb(&self) -> Option<u64> {
        rss_mb(self.pid())
    }

    /// What the worker wrote to stderr since its last request began, at
    /// most [`crate::worker::crash::REPORT_MAX`] bytes of it: its start and
    /// its end, the cut said (a target that writes 50 MB to stderr must
    /// not make a 50 MB report).
    pub fn report(&mut self) -> String {
        let len = self.capture.metadata().map_or(0, |m| m.len());
        let from = self.capture_mark.min(len);
        let half = crate::worker::crash::REPORT_MAX as u64 / 2;
        let read = |f: &mut File, at: u64, n: u64| {
            let mut buf = Vec::new();
            if f.seek(SeekFrom::Start(at)).is_ok() {
                let _ = f.take(n).read_to_end(&mut buf);
            }
            buf
        };
        if len - from <= 2 * half {
            let text = read(&mut self.capture, from, len - from);
            return String::from_utf8_lossy(&text).into_owned();
        }
        let head = read(&mut self.capture, from, half);
        let tail = read(&mut self.capture, len - half, half);
        crate::worker::crash::cut_report(&head, len - from - 2 * half, &tail)
    }

    /// The input in its shared memory: the one it runs, or last ran.
    pub fn input(&self) -> Vec<u8> {
        self.shm.input()
    }

    /// Reaps a worker whose pipe closed and says how it ended.
    pub fn death(&mut self) -> Death {
        let status = self.child.wait().ok();
        let report = self.report();
        let input = self.shm.input();
        let mutation = self.shm.mutation();
        let other = mutation
            .filter(|m| m.call == crate::worker::shm::MutatorCall::CrossOver)
            .map(|_| self.shm.other());
        let kind = match self.killed {
            // A crash whose handler then blocked (in malloc, say) is still
            // the crash its header names.
            Some(Killed::Timeout) => {
                crate::worker::crash::reported_signal(&report).unwrap_or(DeathKind::Timeout)
            }
            Some(Killed::OutOfMemory(rss_mb)) => DeathKind::OutOfMemory { rss_mb },
            Some(Killed::Stopping) => DeathKind::Stopped,
            None => classify(status, &report),
        };
        Death {
            kind,
            report,
            input,
            mutation,
            other,
        }
    }

    /// Asks the worker to stop and reaps it; kills it if it does not.
    pub fn stop(mut self) {
        let _ = self.send(&Request::Stop);
        let start = Instant::now();
        // A worker told to stop is gone within a millisecond or two: looked
        // at as often, so that a tool's own end does not wait on the poll.
        while start.elapsed() < Duration::from_millis(300) {
            if let Ok(Some(_)) = self.child.try_wait() {
                let _ = std::fs::remove_file(&self.shm_path);
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.kill(Killed::Stopping);
        self.reap();
    }

    /// Reaps a worker already killed ([`Worker::kill`]): waits for its
    /// end, which SIGKILL makes certain, and removes its shared memory.
    pub fn reap(mut self) {
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.shm_path);
    }
}

/// A crash's kind from the exit status and what the worker wrote.
fn classify(status: Option<std::process::ExitStatus>, report: &str) -> DeathKind {
    crate::worker::crash::death_kind(
        status.and_then(|s| s.signal()),
        status.and_then(|s| s.code()),
        report,
    )
}

/// One worker driven one request at a time, for tools that do not fuzz
/// (fuzz-minimize, fuzz-corpus merge -lib and cover): a request that kills or hangs the
/// worker comes back as its `Death`, and the next request goes to a fresh
/// worker. A fresh worker's warm-up (see [`Response::Warmed`]) gets
/// [`warm_up_allowance`]; every request after it gets its timeout, so a
/// hang is known in about the timeout.
pub struct Session {
    worker: Option<Worker>,
    rx: std::sync::mpsc::Receiver<Event>,
    tx: Sender<Event>,
    worker_bin: PathBuf,
    lib: PathBuf,
    /// What its workers' environment has beyond the tool's ([`Spawn::env`]).
    env: Vec<EnvVar>,
    target: Option<String>,
    dir: PathBuf,
    capacity: usize,
    /// The current worker's warm-up is done.
    warmed: bool,
    /// Its first request gets the warm-up's allowance: its warm-up failed
    /// or was skipped.
    fresh: bool,
    /// The next worker starts without a warm-up: the last one died in it.
    skip_warm_up: bool,
    /// Which worker is current: events of earlier ones are stale.
    generation: WorkerId,
    /// How the last worker to die died.
    last: Option<Box<Death>>,
    /// Asked every 100 ms while a request runs: true stops the session
    /// (Ctrl-C), the request then ends as a death of kind `Stopped`.
    stop: fn() -> bool,
    /// The target's name, kind and argument types, from the handshake.
    pub desc: TargetDesc,
    /// The coverage counters the worker reads, from the handshake: none
    /// for a library without coverage instrumentation.
    pub counters: u32,
}

/// What a worker's warm-up (loading, initialisation and the run of the
/// empty input) may take: max(60 s, 10 × the time limit of an input), as
/// ARCHITECTURE.md says. No limit (0) stays no limit.
pub fn warm_up_allowance(timeout: Duration) -> Duration {
    if timeout.is_zero() {
        return Duration::ZERO;
    }
    (timeout * 10).max(Duration::from_secs(60))
}

/// Resident memory of process `pid` in MiB, from `/proc/PID/statm`; None
/// when it is gone. The one reading of it: the coordinator's of its
/// workers, and `fuzz-worker`'s of the children it runs inputs in.
pub fn rss_mb(pid: i32) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    let page = sysconf(SysconfVar::PAGE_SIZE)
        .ok()
        .flatten()
        .unwrap_or(4096) as u64;
    Some((pages * page) >> 20)
}

/// A death for a request no worker served.
fn no_worker(kind: DeathKind, report: String) -> Box<Death> {
    Box::new(Death {
        kind,
        report,
        input: Vec::new(),
        mutation: None,
        other: None,
    })
}

impl Session {
    /// Starts a worker and waits for its handshake. An error is the
    /// worker's own one-line complaint (a library that cannot be loaded, an
    /// unknown target), or why it could not start. Its workers' environment
    /// has `env` beyond the tool's ([`Spawn::env`]).
    pub fn start(
        worker_bin: &Path,
        lib: &Path,
        target: Option<&str>,
        dir: &Path,
        capacity: usize,
        stop: fn() -> bool,
        env: Vec<EnvVar>,
    ) -> Result<Session, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut s = Session {
            worker: None,
            rx,
            tx,
            worker_bin: worker_bin.to_path_buf(),
            lib: lib.to_path_buf(),
            env,
            target: target.map(str::to_string),
            dir: dir.to_path_buf(),
            capacity,
            warmed: false,
            fresh: true,
            skip_warm_up: false,
            generation: WorkerId(0),
            last: None,
            stop,
            desc: TargetDesc {
                name: String::new(),
                kind: protocol::TargetKind::LibFuzzer,
                args: Vec::new(),
            },
            counters: 0,
        };
        s.respawn()?;
        Ok(s)
    }

    fn respawn(&mut self) -> Result<(), String> {
        self.generation.0 += 1;
        let generation = self.generation;
        let serve = ServeArgs {
            no_warm_up: self.skip_warm_up,
            ..ServeArgs::new(self.lib.clone(), self.target.clone())
        };
        let spawn = Spawn {
            worker: &self.worker_bin,
            serve: &serve,
            dir: &self.dir,
            capacity: self.capacity,
            cwd: None,
            env: &self.env,
        };
        let mut worker = Worker::spawn(generation, &spawn, self.tx.clone())?;
        loop {
            match self.rx.recv() {
                Ok(Event::Answer(g, _) | Event::Gone(g) | Event::Garbled(g, _))
                    if g != generation => {}
                Ok(Event::Answer(
                    _,
                    Response::Hello {
                        version,
                        target,
                        counters,
                    },
                )) => {
                    if version != protocol::VERSION {
                        return Err(format!(
                            "{} speaks protocol version {version}, this tool {}: install matching versions",
                            self.worker_bin.display(),
                            protocol::VERSION
                        ));
                    }
                    self.desc = target;
                    self.counters = counters;
                    self.worker = Some(worker);
                    self.warmed = false;
                    self.fresh = true;
                    return Ok(());
                }
                Ok(Event::Answer(..)) => {}
                Ok(Event::Garbled(_, m)) => return Err(m),
                Ok(Event::Gone(_)) | Err(_) => {
                    let death = worker.death();
                    return Err(crate::worker::crash::last_said(&death.report)
                        .map(str::to_string)
                        .unwrap_or(format!("the worker exited ({})", death.kind)));
                }
            }
        }
    }

    /// Waits for the current worker's warm-up, within its allowance. A
    /// worker that dies or hangs in it is replaced by one that skips it,
    /// whose first request then gets the allowance.
    fn warm_up(&mut self, timeout: Duration) -> Result<(), Box<Death>> {
        let warmed = |r: &Response| matches!(r, Response::Warmed { .. });
        match self.wait(warm_up_allowance(timeout), warmed, |_| {})? {
            Some(Response::Warmed { ok }) => {
                self.warmed = true;
                self.fresh = !ok;
            }
            _ => {
                // Died or hung in its warm-up: the next worker skips it.
                self.skip_warm_up = true;
                self.respawn()
                    .map_err(|e| no_worker(DeathKind::CannotRun, e))?;
                self.warmed = true;
                self.fresh = true;
            }
        }
        Ok(())
    }

    /// Waits up to `limit` (none for zero) for an answer `want` accepts
    /// from the current worker. `Ok(None)`: it died or hung (it is killed
    /// and reaped; `self.worker` is then `None` and the death is in
    /// `self.last`). `Err`: stopped.
    fn wait(
        &mut self,
        limit: Duration,
        want: impl Fn(&Response) -> bool,
        mut other: impl FnMut(&Response),
    ) -> Result<Option<Response>, Box<Death>> {
        let start = Instant::now();
        loop {
            if (self.stop)() {
                if let Some(mut w) = self.worker.take() {
                    w.kill(Killed::Stopping);
                    let _ = w.child.wait();
                }
                return Err(no_worker(DeathKind::Stopped, String::new()));
            }
            let step = Duration::from_millis(100);
            let left = if limit.is_zero() {
                step
            } else {
                limit.saturating_sub(start.elapsed()).min(step)
            };
            match self.rx.recv_timeout(left.max(Duration::from_millis(1))) {
                Ok(Event::Answer(g, _) | Event::Gone(g) | Event::Garbled(g, _))
                    if g != self.generation => {}
                // The crash handler's first word: the death follows.
                Ok(Event::Answer(_, Response::Crashing)) => {}
                Ok(Event::Answer(_, r)) if want(&r) => return Ok(Some(r)),
                Ok(Event::Answer(_, r)) => other(&r),
                Ok(Event::Garbled(..)) => {}
                Ok(Event::Gone(_)) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    self.last = self.worker.take().map(|mut w| Box::new(w.death()));
                    return Ok(None);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if !limit.is_zero() && start.elapsed() >= limit {
                        let mut w = self.worker.take().expect("present");
                        w.kill(Killed::Timeout);
                        // Wait for the reader to see the end of the pipe.
                        while let Ok(e) = self.rx.recv_timeout(Duration::from_secs(5)) {
                            if matches!(e, Event::Gone(g) if g == self.generation) {
                                break;
                            }
                        }
                        self.last = Some(Box::new(w.death()));
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// Sends one request and waits for its answer, at most `timeout` (none
    /// for zero), or the warm-up's allowance for the first request of a
    /// worker whose warm-up failed. `Err(Death)` when the worker died or
    /// hung on it (the next call starts a new worker), or was stopped
    /// (kind `Stopped`).
    pub fn call(&mut self, request: &Request, timeout: Duration) -> Result<Response, Box<Death>> {
        self.call_noting(request, timeout, |_| {})
    }

    /// [`Session::call`], with `note` shown every answer that does not end
    /// the request (a minimization's `Progress`, a `Warning`).
    pub fn call_noting(
        &mut self,
        request: &Request,
        timeout: Duration,
        note: impl FnMut(&Response),
    ) -> Result<Response, Box<Death>> {
        if self.worker.is_none() {
            self.respawn()
                .map_err(|e| no_worker(DeathKind::CannotRun, e))?;
        }
        if !self.warmed {
            self.warm_up(timeout)?;
        }
        let limit = if self.fresh {
            warm_up_allowance(timeout)
        } else {
            timeout
        };
        self.fresh = false;
        let worker = self.worker.as_mut().expect("started above");
        if let Err(e) = worker.send(request) {
            let mut w = self.worker.take().expect("present");
            let mut d = w.death();
            d.report.push_str(&e);
            return Err(Box::new(d));
        }
        let ends = |r: &Response| {
            !matches!(
                r,
                Response::Progress { .. } | Response::Warmed { .. } | Response::Warning { .. }
            )
        };
        let answer = self.wait(limit, ends, note)?;
        match answer {
            Some(r) => Ok(r),
            None => Err(self
                .last
                .take()
                .unwrap_or_else(|| no_worker(DeathKind::Lost, "the worker vanished".into()))),
        }
    }

    /// Stops the worker.
    pub fn stop(mut self) {
        if let Some(w) = self.worker.take() {
            w.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_up_allowance_is_design_s() {
        assert_eq!(
            warm_up_allowance(Duration::from_secs(1)),
            Duration::from_secs(60)
        );
        assert_eq!(
            warm_up_allowance(Duration::from_secs(10)),
            Duration::from_secs(100)
        );
        assert_eq!(
            warm_up_allowance(Duration::ZERO),
            Duration::ZERO,
            "no limit stays none"
        );
    }

    #[test]
    fn kinds() {
        assert_eq!(
            classify(
                None,
                "==1==ERROR: AddressSanitizer: heap-buffer-overflow on"
            )
            .to_string(),
            "asan: heap-buffer-overflow"
        );
        assert_eq!(
            classify(None, "deadly signal SIGSEGV (stack overflow)"),
            DeathKind::StackOverflow
        );
    }
}
