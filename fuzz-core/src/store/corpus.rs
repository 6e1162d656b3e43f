//! Corpus directories: reading every entry of a seed or cache directory.

use crate::error::{Error, Result};
use crate::format::codec;
use crate::format::value::Value;
use std::path::{Path, PathBuf};

/// One file of a corpus directory and what it holds.
#[derive(Debug)]
pub struct Entry {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    /// The decoded values, or why the file is malformed.
    pub values: Result<Vec<Value>>,
}

impl Entry {
    /// Reads and decodes one file. Only an I/O failure is an error here; a
    /// malformed file is an entry whose `values` is the error.
    pub fn read(path: &Path) -> Result<Entry> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let values = codec::decode(&bytes).map_err(|e| e.in_file(path));
        Ok(Entry {
            path: path.to_path_buf(),
            bytes,
            values,
        })
    }

    /// The file's name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The regular files directly inside `dir`, sorted by name, as Go reads a
/// corpus directory (subdirectories are ignored; so are our own temporary
/// files, which start with `.tmp-`).
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let meta = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?;
    if !meta.is_dir() {
        return Err(Error::Invalid(format!(
            "{}: not a directory",
            crate::error::shown(dir)
        )));
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with(".tmp-") {
            continue;
        }
        let is_file = std::fs::metadata(&path)
            .map(|m| m.is_file())
            .unwrap_or(false);
        if is_file {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Reads every entry of a corpus directory.
pub fn read_dir(dir: &Path) -> Result<Vec<Entry>> {
    files_in(dir)?.iter().map(|p| Entry::read(p)).collect()
}
