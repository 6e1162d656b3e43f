//! Operands that may be `-`: reading stdin, writing stdout, and naming them
//! in messages.

use crate::exit::CliError;
use fuzz_core::error::shown;
use std::io::{Read, Write};
use std::path::Path;

/// True when an operand names stdin or stdout.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an operand is named in messages.
pub fn display(path: &Path) -> String {
    if is_stdio(path) {
        "<stdin>".to_string()
    } else {
        shown(path)
    }
}

/// Reads a whole operand, `-` being stdin. A directory, a missing file or an
/// unreadable one is misuse (exit 2), named in the message.
pub fn read_operand(path: &Path) -> Result<Vec<u8>, CliError> {
    if is_stdio(path) {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf).map_err(|e| {
            CliError::misuse(format!("<stdin>: {}", fuzz_core::error::describe(&e)))
        })?;
        return Ok(buf);
    }
    if path.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: is a directory, not a file",
            shown(path)
        )));
    }
    std::fs::read(path).map_err(|e| {
        CliError::misuse(format!(
            "{}: {}",
            shown(path),
            fuzz_core::error::describe(&e)
        ))
    })
}

/// Writes bytes to an output operand: stdout when `None` or `-`, else the
/// file, replaced atomically so that a reader never sees half of it.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match path {
        None => write_stdout(bytes),
        Some(p) if is_stdio(p) => write_stdout(bytes),
        Some(p) => {
            if p.is_dir() {
                return Err(CliError::misuse(format!(
                    "{}: is a directory, not a file (-o)",
                    shown(p)
                )));
            }
            fuzz_core::store::fsutil::write_atomic(p, bytes)?;
            Ok(())
        }
    }
}

/// Checks, before any work, that a file can be written at `path`, named
/// in messages by `what` (the flag or operand: `-o`, `-w`): its directory
/// exists, is a directory, and takes new files (a read-only mount stops
/// root too). A tool that would fail to write its result fails at once,
/// in words about the user's path. `-` (stdout) always passes.
pub fn check_output_file(path: &Path, what: &str) -> Result<(), CliError> {
    if is_stdio(path) {
        return Ok(());
    }
    if path.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: is a directory, not a file ({what})",
            shown(path)
        )));
    }
    let dir = parent(path);
    let why = match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no such directory".to_string(),
        Err(e) => fuzz_core::error::describe(&e),
        Ok(m) if !m.is_dir() => "not a directory".to_string(),
        Ok(_) => match unwritable(dir) {
            Some(why) => why,
            None => return Ok(()),
        },
    };
    Err(CliError::misuse(format!(
        "{}: cannot be written: {}: {why} ({what})",
        shown(path),
        shown(dir)
    )))
}

/// Checks, before any work, that files can be written into the directory
/// `dir`, or that it can be created (its nearest existing ancestor is a
/// directory that takes new entries); named in messages by `what`.
pub fn check_output_dir(dir: &Path, what: &str) -> Result<(), CliError> {
    let named = shown(dir);
    if let Ok(m) = std::fs::metadata(dir) {
        if !m.is_dir() {
            return Err(CliError::misuse(format!(
                "{named}: not a directory ({what})"
            )));
        }
        return match unwritable(dir) {
            Some(why) => Err(CliError::misuse(format!(
                "{named}: cannot be written in: {why} ({what})"
            ))),
            None => Ok(()),
        };
    }
    // The nearest ancestor that exists is where the creation starts.
    let mut ancestor = parent(dir);
    let why = loop {
        match std::fs::metadata(ancestor) {
            Ok(m) if !m.is_dir() => break "not a directory".to_string(),
            Ok(_) => match unwritable(ancestor) {
                Some(why) => break why,
                None => return Ok(()),
            },
            Err(e) if ancestor == Path::new(".") || ancestor == Path::new("/") => {
                break fuzz_core::error::describe(&e)
            }
            Err(_) => ancestor = parent(ancestor),
        }
    };
    Err(CliError::misuse(format!(
        "{named}: cannot be created: {}: {why} ({what})",
        shown(ancestor)
    )))
}

/// The directory a path is in, `.` for a bare name.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Why new entries cannot be made in the directory `dir`, if they cannot:
/// a read-only file system (which stops root too), or its permissions.
fn unwritable(dir: &Path) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a valid NUL-terminated string that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0 {
        return None;
    }
    let e = std::io::Error::last_os_error();
    Some(match e.raw_os_error() {
        Some(libc::EROFS) => "read-only file system".to_string(),
        Some(libc::EACCES) | Some(libc::EPERM) => "permission denied".to_string(),
        _ => fuzz_core::error::describe(&e),
    })
}

/// Puts a path into a JSON object under `key`, as text; when it is not
/// UTF-8 (which JSON text cannot hold), its exact bytes too, in hex, under
/// `<key>_hex`, so that a script can recover them.
pub fn json_path(obj: &mut serde_json::Value, key: &str, path: &Path) {
    let (text, hex) = path_text(path);
    obj[key] = serde_json::Value::String(text);
    if let Some(hex) = hex {
        obj[format!("{key}_hex")] = serde_json::Value::String(hex);
    }
}

/// A path as JSON text, and its exact bytes in hex when it is not UTF-8
/// (see [`json_path`]).
pub fn path_text(path: &Path) -> (String, Option<String>) {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let hex = std::str::from_utf8(bytes)
        .is_err()
        .then(|| hex::encode(bytes));
    (path.to_string_lossy().into_owned(), hex)
}

/// Set once standard output is found closed (a pipe into `head`).
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Standard output, locked, as every result of the tools is written: a
/// closed pipe ends only the printing (what is written after it is
/// dropped), never the work, so that work with side effects (a merge,
/// fmt -w) is done whole and the exit status is still the verdict on the
/// whole input (`check BAD | head -1` exits 1), as ARCHITECTURE.md says ("Invariants").
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

/// See [`stdout`].
pub struct Stdout(std::io::StdoutLock<'static>);

impl Stdout {
    fn closed(&self, r: std::io::Result<()>) -> std::io::Result<()> {
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            }
            other => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(buf.len());
        }
        match self.0.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(());
        }
        let r = self.0.flush();
        self.closed(r)
    }
}

/// Writes to stdout (see [`stdout`]: a closed pipe drops the bytes).
pub fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = stdout();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Prints a path on stdout as one line of its exact bytes (paths need not
/// be UTF-8), for scripts.
pub fn print_path(path: &Path) -> Result<(), CliError> {
    use std::os::unix::ffi::OsStrExt;
    let mut out = stdout();
    out.write_all(path.as_os_str().as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// Prints one value as a line of JSON on stdout (a `-json` event).
pub fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    // The tools' events are plain data (no maps with non-string keys), which
    // always serialize.
    let text = serde_json::to_string(value).expect("an event serializes to JSON");
    print_line(text)
}

/// Prints one line of results on stdout (a path, a listing line). Unlike
/// `println!`, a closed pipe neither panics nor stops the work.
pub fn print_line(line: impl std::fmt::Display) -> Result<(), CliError> {
    let mut out = stdout();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
