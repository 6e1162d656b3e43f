//! fuzz-build's cache of libraries: one directory per package directory,
//! named after it (so that a rebuilt library keeps its path, and with it
//! fuzz-run's corpus cache), holding the library and the key of what it
//! was built from.

use fuzz_cli::CliError;
use fuzz_core::store::fsutil;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The cache root: `flag`, else `$FUZZ_BUILD_CACHE`, else
/// `$XDG_CACHE_HOME/fuzz-build`, else `$HOME/.cache/fuzz-build` (empty
/// variables count as unset; relative ones are resolved against the
/// working directory, but for `XDG_CACHE_HOME`, which XDG says to ignore
/// then).
pub fn root(flag: Option<&Path>) -> Result<PathBuf, CliError> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let root = flag
        .map(Path::to_path_buf)
        .or_else(|| var("FUZZ_BUILD_CACHE"))
        .or_else(|| {
            var("XDG_CACHE_HOME")
                .filter(|p| p.is_absolute())
                .map(|p| p.join("fuzz-build"))
        })
        .or_else(|| var("HOME").map(|h| h.join(".cache/fuzz-build")))
        .ok_or_else(|| {
            CliError::misuse(
                "no cache directory: set -cachedir, FUZZ_BUILD_CACHE, XDG_CACHE_HOME or HOME",
            )
        })?;
    let root = std::path::absolute(&root).map_err(|e| CliError::io(&root, &e))?;
    fsutil::create_dir_all(&root).map_err(|e| CliError::misuse(e.to_string()))?;
    let tag = root.join("CACHEDIR.TAG");
    if !tag.exists() {
        fsutil::write_atomic(
            &tag,
            b"Signature: 8a477f597d28d172789f06886806bc55\n\
              # This file is a cache directory tag created by fuzz-build.\n\
              # For information about cache directory tags, see https://bford.info/cachedir/\n",
        )
        .map_err(|e| CliError::misuse(e.to_string()))?;
    }
    Ok(root)
}

/// A library's name made of `from`: the characters a file name takes
/// everywhere (ASCII letters, digits, `_`), any other one an `_`;
/// `otherwise` when nothing is left.
pub fn library_name(from: &str, otherwise: &str) -> String {
    let name: String = from
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        otherwise.into()
    } else {
        name
    }
}

/// The SHA-256 of what a library is built from, fed part by part.
#[derive(Default)]
pub struct Key(Sha256);

impl Key {
    /// Adds one part; parts are framed by their length, so that no two
    /// lists of parts feed the same bytes.
    pub fn add(&mut self, part: &[u8]) {
        self.0.update((part.len() as u64).to_le_bytes());
        self.0.update(part);
    }

    pub fn hex(&self) -> String {
        hex::encode(self.0.clone().finalize())
    }
}

/// The cache directory of one package directory.
pub struct Entry {
    dir: PathBuf,
    name: String,
}

impl Entry {
    /// The entry of what `identity` names (a package's canonical
    /// directory, or a list of canonical files), whose library is named
    /// `name`; created if need be.
    pub fn open(root: &Path, identity: &[u8], name: &str) -> Result<Entry, CliError> {
        let digest = fuzz_core::store::digest::sha256_hex(identity);
        let dir = root.join(format!("{name}-{}", &digest[..16]));
        fsutil::create_dir_all(&dir).map_err(|e| CliError::misuse(e.to_string()))?;
        Ok(Entry {
            dir,
            name: name.to_string(),
        })
    }

    /// The entry's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where its library is.
    pub fn library(&self) -> PathBuf {
        self.dir.join(format!("lib{}.so", self.name))
    }

    fn key_file(&self) -> PathBuf {
        self.dir.join(format!("lib{}.so.key", self.name))
    }

    /// Where the files a build read are listed (C: the headers).
    pub fn deps_file(&self) -> PathBuf {
        self.dir.join(format!("lib{}.so.deps", self.name))
    }

    /// True when its library exists and was built from `key`.
    pub fn is_built(&self, key: &Key) -> bool {
        self.library().is_file()
            && std::fs::read_to_string(self.key_file()).is_ok_and(|k| k.trim() == key.hex())
    }

    /// A scratch directory inside the entry, removed when dropped. Its
    /// name carries its owner, so that what a fuzz-build killed mid-build
    /// left here (its scratch, a half-written file) is removed now, and
    /// a live build's is not.
    pub fn scratch(&self) -> Result<tempfile::TempDir, CliError> {
        fsutil::sweep(&self.dir, ".build-");
        fsutil::sweep(&self.dir, ".tmp-");
        fsutil::temp_dir(&self.dir, ".build-").map_err(|e| CliError::io(&self.dir, &e))
    }

    /// Copies the library `built` (made elsewhere: cargo's target
    /// directory) to the entry's path, unless it holds those bytes
    /// already; true when it wrote.
    pub fn install_copy(&self, built: &Path) -> Result<bool, CliError> {
        let library = self.library();
        copy_if_changed(built, &library).map_err(|e| match e {
            Copy::Read(e) => CliError::io(built, &e),
            Copy::Write(e) => CliError::misuse(e.to_string()),
            Copy::Mode(e) => CliError::io(&library, &e),
        })
    }

    /// Moves the library `built` (in the entry's scratch directory, so on
    /// the same file system) into place, then records its key: a reader
    /// sees the old library or the new one, never a part of one.
    pub fn install(&self, built: &Path, key: &Key) -> Result<(), CliError> {
        let library = self.library();
        std::fs::rename(built, &library).map_err(|e| CliError::io(&library, &e))?;
        fsutil::write_atomic(&self.key_file(), format!("{}\n", key.hex()).as_bytes())
            .map_err(|e| CliError::misuse(e.to_string()))
    }
}

/// Copies the library `from` to `to` (`-o`), atomically; nothing is
/// written when `to` holds the same bytes already.
pub fn copy_out(from: &Path, to: &Path) -> Result<(), CliError> {
    copy_if_changed(from, to).map_err(|e| match e {
        Copy::Read(e) => CliError::io(from, &e),
        Copy::Write(e) => CliError::misuse(format!("-o: {e}")),
        Copy::Mode(e) => CliError::io(to, &e),
    })?;
    Ok(())
}

/// Why a copy failed: reading its source, writing, or setting the mode.
pub enum Copy {
    Read(std::io::Error),
    Write(fuzz_core::Error),
    Mode(std::io::Error),
}

/// Copies `from` to `to` atomically, executable, unless `to` holds the
/// same bytes already; true when it wrote.
pub fn copy_if_changed(from: &Path, to: &Path) -> Result<bool, Copy> {
    let bytes = std::fs::read(from).map_err(Copy::Read)?;
    if std::fs::read(to).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    fsutil::write_atomic(to, &bytes).map_err(Copy::Write)?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).map_err(Copy::Mode)?;
    Ok(true)
}
