//! Running one input in a forked child, for minimizing failures: a crash
//! or hang kills the child, not the worker, so a crash costs a fork rather
//! than a new worker process. The worker has no threads, so forking is
//! safe; the child inherits the loaded target, its state and the crash
//! handlers (told not to symbolize: a crash site needs module offsets
//! only).

use crate::executor::{self, Executor, Verdict};
use fuzz_core::worker::crash::{self, DeathKind};
use fuzz_core::worker::protocol::Checked;
use fuzz_core::Value;
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::FromRawFd;
use std::time::Duration;

// Exit codes a child uses to say how the target returned; anything else is
// the target's own exit.
const OK: i32 = 120;
const REJECTED: i32 = 121;
const FAILED: i32 = 122;

/// What a child may take: time, and resident memory (checked every
/// [`RSS_EVERY`] while it runs).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    pub rss_limit_mb: u64,
}

const RSS_EVERY: Duration = Duration::from_millis(50);

/// Runs `values` once in a child.
pub fn check(exec: &mut Executor, values: &[Value], limits: Limits) -> Checked {
    let module = &exec.module.clone();
    // SAFETY: fork with no other thread running; the child only executes
    // the target and leaves with _exit; fds are plain pipes and a memfd.
    unsafe {
        let capture = libc::memfd_create(c"fuzz-worker-check".as_ptr(), 0);
        let mut fds = [0; 2];
        if capture < 0 || libc::pipe(fds.as_mut_ptr()) != 0 {
            if capture >= 0 {
                libc::close(capture);
            }
            return Checked::Died {
                kind: DeathKind::CannotRun,
                site: String::new(),
                report: std::io::Error::last_os_error().to_string(),
            };
        }
        let pid = crate::children::fork();
        if pid == 0 {
            // Die with the worker, should it be killed while this runs.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || libc::getppid() == 1 {
                libc::_exit(1);
            }
            libc::close(fds[0]);
            libc::dup2(capture, 2);
            crate::crash::rebind();
            crate::crash::SYMBOLIZE.store(false, std::sync::atomic::Ordering::Relaxed);
            let ret = exec.exec(values);
            // The coverage reached, for the parent.
            let bytes: Vec<u8> = exec.features.iter().flat_map(|f| f.to_le_bytes()).collect();
            let mut rest = &bytes[..];
            while !rest.is_empty() {
                let n = libc::write(fds[1], rest.as_ptr().cast(), rest.len());
                if n <= 0 {
                    break;
                }
                rest = &rest[n as usize..];
            }
            let code = match exec.classify_ret(ret) {
                Verdict::Ok => OK,
                Verdict::Rejected => REJECTED,
                Verdict::Failed => FAILED,
            };
            libc::_exit(code);
        }
        libc::close(fds[1]);
        let mut timed_out = false;
        let mut blown: Option<u64> = None;
        let mut sent: Vec<u8> = Vec::new();
        if pid > 0 {
            // Read what the child sends until it is gone (EOF), within the
            // timeout and the memory limit.
            // A limit of 0 is no limit, for time and memory alike.
            let mut deadline =
                (!limits.timeout.is_zero()).then(|| std::time::Instant::now() + limits.timeout);
            let mut asked: Option<std::time::Instant> = None;
            let mut last_rss = std::time::Instant::now();
            loop {
                let left = match deadline {
                    Some(d) => d.saturating_duration_since(std::time::Instant::now()),
                    None => RSS_EVERY,
                };
                if left.is_zero() {
                    // Past the limit: the child is asked where it is (it
                    // writes its stack, the hang's site, and dies), then
                    // killed if it has not died within the grace.
                    match asked {
                        None => {
                            timed_out = true;
                            asked = Some(std::time::Instant::now());
                            libc::kill(pid, crate::crash::TIMEOUT_SIGNAL);
                            deadline = Some(
                                std::time::Instant::now() + fuzz_core::worker::client::STACK_GRACE,
                            );
                            continue;
                        }
                        Some(_) => {
                            libc::kill(pid, libc::SIGKILL);
                            break;
                        }
                    }
                }
                let mut pfd = libc::pollfd {
                    fd: fds[0],
                    events: libc::POLLIN,
                    revents: 0,
                };
                let ms = left.min(RSS_EVERY).as_millis().clamp(1, i32::MAX as u128) as i32;
                let ready = libc::poll(&mut pfd, 1, ms) > 0;
                if last_rss.elapsed() >= RSS_EVERY {
                    last_rss = std::time::Instant::now();
                    let rss = fuzz_core::worker::client::rss_mb(pid).unwrap_or(0);
                    if limits.rss_limit_mb > 0 && rss > limits.rss_limit_mb {
                        blown = Some(rss);
                        libc::kill(pid, libc::SIGKILL);
                        break;
                    }
                }
                if !ready {
                    continue;
                }
                let mut chunk = [0u8; 65536];
                let n = libc::read(fds[0], chunk.as_mut_ptr().cast(), chunk.len());
                if n <= 0 {
                    break;
                }
                sent.extend_from_slice(&chunk[..n as usize]);
            }
        }
        libc::close(fds[0]);
        let mut status = 0;
        if pid > 0 {
            libc::waitpid(pid, &mut status, 0);
        }
        let mut file = std::fs::File::from_raw_fd(capture);
        let mut report = Vec::new();
        let _ = file.seek(SeekFrom::Start(0));
        let _ = file.read_to_end(&mut report);
        let report = String::from_utf8_lossy(&report).into_owned();
        if pid < 0 {
            return Checked::Died {
                kind: DeathKind::CannotRun,
                site: String::new(),
                report,
            };
        }
        if let Some(rss) = blown {
            let kind = DeathKind::OutOfMemory { rss_mb: rss };
            return Checked::Died {
                site: crash::site(&kind, &report, module),
                kind,
                report,
            };
        }
        if timed_out {
            let kind = crash::reported_signal(&report).unwrap_or(DeathKind::Timeout);
            return Checked::Died {
                site: crash::site(&kind, &report, module),
                kind,
                report,
            };
        }
        let (signal, code) = if libc::WIFSIGNALED(status) {
            (Some(libc::WTERMSIG(status)), None)
        } else {
            (None, Some(libc::WEXITSTATUS(status)))
        };
        match code {
            Some(OK) => Checked::Ok {
                features: sent
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            },
            Some(REJECTED) => Checked::Rejected,
            Some(FAILED) => {
                let message = executor::failure_message(&report, 1);
                Checked::Failed {
                    site: crash::failure_site(&message),
                    message,
                }
            }
            _ => {
                let kind = crash::death_kind(signal, code, &report);
                Checked::Died {
                    site: crash::site(&kind, &report, module),
                    kind,
                    report,
                }
            }
        }
    }
}
