//! The source files `cover -html`, `-lines` and `-diff` show, each read
//! once, when first needed, from the path the debug information gives.
//!
//! A source file need not be on the machine that runs the report (a
//! library built elsewhere), nor be the one the library was built from
//! (edited since): a file that cannot be read is said so, and its lines
//! are shown by the addresses of their blocks; one changed after the
//! library was written is shown with a note. Lines are bytes: nothing
//! here assumes UTF-8.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::Path;
use std::time::SystemTime;

/// One source file: its lines, or why there are none.
pub struct Source {
    /// Lines without their line ends; `None` when the file is not read.
    pub lines: Option<Vec<Vec<u8>>>,
    /// What the reader should know: the file is missing, unreadable, or
    /// newer than the library.
    pub note: Option<String>,
}

impl Source {
    /// The text of line `number` (from 1), if the file has it.
    pub fn line(&self, number: u32) -> Option<&[u8]> {
        let i = usize::try_from(number).ok()?.checked_sub(1)?;
        self.lines.as_ref()?.get(i).map(Vec::as_slice)
    }
}

/// The report's source files, read on demand.
pub struct Sources<'a> {
    paths: &'a [String],
    shown: Vec<String>,
    library_time: Option<SystemTime>,
    read: HashMap<usize, Source>,
}

impl<'a> Sources<'a> {
    /// `paths` as the report has them; `library_time`, when the library
    /// was last written, to tell a source changed since.
    pub fn new(paths: &'a [String], library_time: Option<SystemTime>) -> Sources<'a> {
        let cwd = std::env::current_dir().ok();
        Sources {
            paths,
            shown: paths.iter().map(|p| shorten(p, cwd.as_deref())).collect(),
            library_time,
            read: HashMap::new(),
        }
    }

    /// The file's name as shown: relative to the current directory when
    /// below it.
    pub fn name(&self, file: usize) -> &str {
        self.shown.get(file).map_or("?", String::as_str)
    }

    /// The file, read the first time it is asked for.
    pub fn get(&mut self, file: usize) -> &Source {
        let (paths, shown, time) = (self.paths, &self.shown, self.library_time);
        self.read
            .entry(file)
            .or_insert_with(|| match paths.get(file) {
                Some(p) => read(p, &shown[file], time),
                None => Source {
                    lines: None,
                    note: Some("no such source file".to_string()),
                },
            })
    }
}

fn read(path: &str, shown: &str, library_time: Option<SystemTime>) -> Source {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let why = match e.kind() {
                ErrorKind::NotFound => "is not on this machine".to_string(),
                _ => format!("cannot be read: {}", fuzz_core::error::describe(&e)),
            };
            return Source {
                lines: None,
                note: Some(format!(
                    "{shown} {why}: its lines are shown by the addresses of the blocks \
                     that start on them"
                )),
            };
        }
    };
    let changed = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let note = match (changed, library_time) {
        (Some(c), Some(l)) if c > l => Some(format!(
            "{shown} changed after the library was built: lines may not match the code"
        )),
        _ => None,
    };
    Source {
        lines: Some(split_lines(&bytes)),
        note,
    }
}

/// The lines of a file, without their `\n` or `\r\n`.
fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
        .collect()
}

/// A source path as shown: relative to the current directory when below it.
pub fn shorten(file: &str, cwd: Option<&Path>) -> String {
    if let Some(rest) = cwd.and_then(|c| Path::new(file).strip_prefix(c).ok()) {
        return rest.display().to_string();
    }
    file.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_without_their_ends() {
        assert_eq!(split_lines(b""), Vec::<Vec<u8>>::new());
        assert_eq!(split_lines(b"a\n"), vec![b"a".to_vec()]);
        assert_eq!(split_lines(b"a\r\nb"), vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(split_lines(b"\n\n"), vec![b"".to_vec(), b"".to_vec()]);
        let s = Source {
            lines: Some(split_lines(b"x\ny\n")),
            note: None,
        };
        assert_eq!(s.line(2), Some(&b"y"[..]));
        assert_eq!(s.line(0), None);
        assert_eq!(s.line(3), None);
    }

    #[test]
    fn paths_below_the_current_directory_are_relative() {
        let cwd = Path::new("/src/proj");
        assert_eq!(shorten("/src/proj/lib/a.c", Some(cwd)), "lib/a.c");
        assert_eq!(shorten("/usr/include/x.h", Some(cwd)), "/usr/include/x.h");
        assert_eq!(shorten("rel.c", None), "rel.c");
    }
}
