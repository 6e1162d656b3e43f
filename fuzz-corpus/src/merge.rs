//! `fuzz-corpus merge`: the union of corpus directories.
//!
//! Entries are the same when their bytes are; a new entry is written under
//! the digest of its bytes with an atomic no-clobber rename, so two merges
//! running into the same directory never tear or duplicate a file.

use crate::TOOL;
use fuzz_cli::{CliError, Status};
use fuzz_core::store::corpus::{files_in, Entry};
use fuzz_core::{store::digest, store::fsutil};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub fn run(dst: &Path, srcs: &[PathBuf]) -> Result<Status, CliError> {
    // Read and check every source entry before writing anything.
    let incoming = read_sources(dst, srcs)?;
    for entry in &incoming {
        if let Err(e) = &entry.values {
            return Err(CliError::misuse(format!("{e} (nothing merged)")));
        }
    }
    let mut have: HashSet<String> = HashSet::new();
    if dst.is_dir() {
        for path in files_in(dst)? {
            let bytes = std::fs::read(&path).map_err(|e| CliError::io(&path, &e))?;
            have.insert(digest::sha256_hex(&bytes));
        }
    }
    fsutil::create_dir_all(dst)?;
    let (mut added, mut present) = (0, 0);
    for entry in incoming {
        if !have.insert(digest::sha256_hex(&entry.bytes)) {
            present += 1;
            continue;
        }
        let path = dst.join(digest::entry_name(&entry.bytes));
        if fsutil::write_new_atomic_in_batch(&path, &entry.bytes)? {
            added += 1;
            fuzz_cli::io::print_path(&path)?;
        } else {
            present += 1;
        }
    }
    if added > 0 {
        fsutil::sync_dir(dst)?;
    }
    eprintln!(
        "{TOOL}: merged {added} new {} into {} ({present} already present)",
        if added == 1 { "entry" } else { "entries" },
        fuzz_core::error::shown(dst)
    );
    Ok(Status::Success)
}

/// The entries of every SRC directory, after checking that DST can be a
/// merge destination and that every SRC is a directory: nothing is
/// written before these checks pass.
pub fn read_sources(dst: &Path, srcs: &[PathBuf]) -> Result<Vec<Entry>, CliError> {
    fuzz_cli::io::check_output_dir(dst, "merge destination")?;
    let mut incoming = Vec::new();
    for src in srcs {
        if !src.is_dir() {
            let why = if src.exists() {
                "not a directory"
            } else {
                "no such directory"
            };
            return Err(CliError::misuse(format!(
                "{}: {why}",
                fuzz_core::error::shown(src)
            )));
        }
        for path in files_in(src)? {
            incoming.push(Entry::read(&path)?);
        }
    }
    Ok(incoming)
}
