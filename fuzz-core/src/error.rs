//! The error type of fuzz-core: a few variants a binary can map to a
//! one-line message and an exit code.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug)]
pub enum Error {
    /// A file operation failed.
    Io { path: PathBuf, source: io::Error },
    /// A corpus file is malformed. `line` counts from 1 (the header is line
    /// 1); 0 means the file as a whole.
    Codec {
        path: Option<PathBuf>,
        line: usize,
        reason: String,
    },
    /// A corpus entry does not fit the types a target takes.
    Types {
        path: Option<PathBuf>,
        reason: String,
    },
    /// Anything else the caller asked for that cannot be done.
    Invalid(String),
}

impl Error {
    pub fn io(path: impl AsRef<Path>, source: io::Error) -> Error {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// Attaches the file a codec or type error came from.
    pub fn in_file(self, file: impl AsRef<Path>) -> Error {
        match self {
            Error::Codec {
                path: None,
                line,
                reason,
            } => Error::Codec {
                path: Some(file.as_ref().to_path_buf()),
                line,
                reason,
            },
            Error::Types { path: None, reason } => Error::Types {
                path: Some(file.as_ref().to_path_buf()),
                reason,
            },
            other => other,
        }
    }

    /// True for a failed write to a closed pipe, which the tools treat as a
    /// normal end of output.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {}", shown(path), describe(source)),
            Error::Codec { path, line, reason } => match (path, line) {
                (Some(p), 0) => write!(f, "{}: {reason}", shown(p)),
                (Some(p), n) => write!(f, "{}:{n}: {reason}", shown(p)),
                (None, 0) => f.write_str(reason),
                (None, n) => write!(f, "line {n}: {reason}"),
            },
            Error::Types { path, reason } => match path {
                Some(p) => write!(f, "{}: {}", shown(p), reason),
                None => f.write_str(reason),
            },
            Error::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A path as messages show it: as it is when it is UTF-8, else quoted as
/// a shell reads it back, `$'…'` with `\xNN` for each byte that is not
/// UTF-8 (and for control characters), so that no U+FFFD stands in for a
/// byte and the name can be pasted.
pub fn shown(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    let mut out = String::from("$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' | '\'' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('\'');
    out
}

/// An I/O error as people want to read it: "No such file or directory",
/// without Rust's "(os error 2)" and without what a library appended to
/// it (tempfile's "at path" and the name of its temporary file, which the
/// user never asked for).
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_no_os_error_and_no_temporary_file() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(describe(&e), "No such file or directory");
        let dir = std::path::Path::new("/nonexistent-dir-of-a-test");
        let e = tempfile::NamedTempFile::new_in(dir).unwrap_err();
        assert_eq!(describe(&e), "No such file or directory");
        let shown = Error::io("/nonexistent-dir-of-a-test/x", e).to_string();
        assert_eq!(
            shown,
            "/nonexistent-dir-of-a-test/x: No such file or directory"
        );
        assert_eq!(describe(&io::Error::other("plain")), "plain");
    }

    #[test]
    fn paths_that_are_not_utf8_are_shown_shell_quoted() {
        use std::os::unix::ffi::OsStrExt;
        let p = |b: &[u8]| std::path::Path::new(std::ffi::OsStr::from_bytes(b)).to_path_buf();
        assert_eq!(shown(&p(b"a b/c")), "a b/c");
        assert_eq!(shown(&p(b"d\xff/it's\\\n")), "$'d\\xff/it\\'s\\\\\\x0a'");
        let e = Error::io(p(b"lib\xfe.so"), io::Error::from_raw_os_error(2));
        assert_eq!(e.to_string(), "$'lib\\xfe.so': No such file or directory");
    }
}
