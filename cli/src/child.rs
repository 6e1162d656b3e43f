//! Running another of our tools to its end (fuzz-run's regression replay
//! runs `fuzz-worker run`) so that it never outlives its caller: it gets
//! SIGKILL when the caller dies, even of SIGKILL, and a Ctrl-C, SIGTERM or
//! SIGHUP of the caller is passed on to it as SIGTERM (it stops and says
//! what it has), within a fraction of a second.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd` (stdout and stderr captured, stdin closed) to its end. The
/// flag is true when it was stopped by a signal to this process.
pub fn output(cmd: &mut Command) -> std::io::Result<(Output, bool)> {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || libc::getppid() != parent
            {
                libc::_exit(1);
            }
            Ok(())
        });
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped")));
    let err = drain(Box::new(child.stderr.take().expect("piped")));
    let mut stopped_at: Option<Instant> = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if crate::interrupt::interrupted() {
            match stopped_at {
                None => {
                    stopped_at = Some(Instant::now());
                    // SAFETY: signalling our own child.
                    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
                }
                Some(t) if t.elapsed() > Duration::from_millis(500) => {
                    let _ = child.kill();
                }
                Some(_) => {}
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    Ok((output, stopped_at.is_some()))
}
