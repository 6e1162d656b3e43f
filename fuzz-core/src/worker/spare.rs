//! A spare worker: started before its target is known, it lists its
//! library's targets (`fuzz-worker serve --list`, answered with
//! [`Response::Targets`]) and then waits to be told which one to serve.
//! fuzz-run lists a library this way, and its first worker is the process
//! that listed it: the library is loaded, and a sanitizer runtime started,
//! once before the first execution rather than twice. A spare never told
//! is killed and reaped when dropped.

use crate::worker::client::{self, Capture, EnvVar, Event, Launched, Spawn, Worker, WorkerId};
use crate::worker::protocol::{self, Listed, Response};
use crate::worker::serve_args::ServeArgs;
use crate::worker::shm::Shm;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

pub struct Spare {
    /// The process, until it is told or dropped.
    launched: Option<Launched>,
    /// Its stderr, from its start: its listing's errors, then its reports.
    capture: Capture,
    /// Where its shared memory will be, once its size is known.
    shm_path: PathBuf,
    worker: PathBuf,
    /// What it was started with: its library (and its runtime).
    serve: ServeArgs,
    cwd: Option<PathBuf>,
    env: Vec<EnvVar>,
}

/// Why a spare gave no list.
#[derive(Debug)]
pub enum ListError {
    /// It could not be started.
    Start(String),
    /// It ended first: what it wrote to stderr, and how it ended.
    Failed {
        stderr: Vec<u8>,
        status: std::process::ExitStatus,
    },
    /// It answered with something else than its targets.
    Garbled(String),
    /// It speaks another version of the protocol.
    Version(u32),
}

impl Spare {
    /// Starts `worker serve --list` of `serve.lib` (its files in `dir`),
    /// in `cwd` with `env` beyond the tool's environment, and reads the
    /// targets it lists.
    pub fn start(
        worker: &Path,
        serve: &ServeArgs,
        dir: &Path,
        cwd: Option<&Path>,
        env: Vec<EnvVar>,
    ) -> Result<(Spare, Vec<Listed>), ListError> {
        // Several spares may share `dir` (a run's and its -cmp_lib's).
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let capture_path = dir.join(format!("spare{n}.stderr"));
        let shm_path = dir.join(format!("spare{n}.shm"));
        let _ = std::fs::remove_file(&capture_path);
        let capture = Capture::open(capture_path).map_err(ListError::Start)?;
        let args = ServeArgs {
            shm: shm_path.clone(),
            target: None,
            list: true,
            ..serve.clone()
        };
        let launched =
            client::launch(worker, &args, &env, cwd, &capture.file).map_err(ListError::Start)?;
        let mut spare = Spare {
            launched: Some(launched),
            capture,
            shm_path,
            worker: worker.to_path_buf(),
            serve: serve.clone(),
            cwd: cwd.map(Path::to_path_buf),
            env,
        };
        let targets = spare.read_targets()?;
        Ok((spare, targets))
    }

    /// The one line it answers with first.
    fn read_targets(&mut self) -> Result<Vec<Listed>, ListError> {
        let launched = self.launched.as_mut().expect("a spare not yet told");
        let mut line = String::new();
        // Nothing follows the line until the spare is told: the buffer
        // takes no more than it.
        let read = BufReader::new(&mut launched.answers).read_line(&mut line);
        if read.is_err() || line.is_empty() {
            let status = launched
                .child
                .wait()
                .map_err(|e| ListError::Start(format!("{}: {e}", self.worker.display())))?;
            let mut stderr = Vec::new();
            let _ = self.capture.file.seek(SeekFrom::Start(0));
            let _ = (&self.capture.file).read_to_end(&mut stderr);
            return Err(ListError::Failed { stderr, status });
        }
        match protocol::from_line::<Response>(line.trim_end()) {
            Ok(Response::Targets { version, .. }) if version != protocol::VERSION => {
                Err(ListError::Version(version))
            }
            Ok(Response::Targets { targets, .. }) => Ok(targets),
            Ok(other) => Err(ListError::Garbled(format!("{other:?}"))),
            Err(e) => Err(ListError::Garbled(format!("{e}: {}", line.trim_end()))),
        }
    }

    /// Whether it can be the worker `s` would start: the same binary,
    /// library, runtime, directory and environment.
    pub fn fits(&self, s: &Spawn) -> bool {
        s.worker == self.worker
            && s.serve.lib == self.serve.lib
            && s.serve.sanitizer_runtime == self.serve.sanitizer_runtime
            && s.cwd == self.cwd.as_deref()
            && s.env == self.env.as_slice()
    }

    /// Tells it to serve as `s` says ([`Spare::fits`] first): worker
    /// `index`, with its shared memory made now and its reader thread. An
    /// error leaves no process behind (the spare is dropped).
    pub fn serve(
        mut self,
        index: WorkerId,
        s: &Spawn,
        events: Sender<Event>,
    ) -> Result<Worker, String> {
        let _ = std::fs::remove_file(&self.shm_path);
        let shm = Shm::create(&self.shm_path, s.capacity).map_err(|e| e.to_string())?;
        let args = ServeArgs {
            shm: self.shm_path.clone(),
            list: false,
            ..s.serve.clone()
        };
        let mut line = serde_json::to_string(&args).map_err(|e| e.to_string())?;
        line.push('\n');
        let launched = self.launched.as_mut().expect("a spare not yet told");
        launched
            .requests
            .write_all(line.as_bytes())
            .map_err(|e| format!("the spare worker: {e}"))?;
        let launched = self.launched.take().expect("a spare not yet told");
        // Its report starts with what it is told: its listing is done.
        let capture = Capture::open(self.capture.path.clone())?;
        Worker::attach(index, launched, capture, shm, self.shm_path.clone(), events)
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        let Some(mut launched) = self.launched.take() else {
            return;
        };
        client::kill_group(&launched.child);
        let _ = launched.child.wait();
        let _ = std::fs::remove_file(&self.capture.path);
        let _ = std::fs::remove_file(&self.shm_path);
    }
}
