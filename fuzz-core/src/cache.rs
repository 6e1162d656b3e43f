//! Where the generated corpus lives.
//!
//! `<cache>/<library id>/<Target>/`, where `<cache>` is `-fuzzcachedir` if
//! given, else `$FUZZCACHE`, else `$XDG_CACHE_HOME/fuzz`, else
//! `$HOME/.cache/fuzz`; and `<library id>` is the library's name, a `-`, and
//! the first 16 hex digits of the SHA-256 of its canonical absolute path, so
//! that a rebuilt library keeps its cache and two libraries of the same name
//! in different places do not share one. The caller reads the environment
//! and passes it in: this crate reads none.

use crate::error::{Error, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What decides the cache root, as the binaries read it.
#[derive(Default, Debug, Clone)]
pub struct CacheEnv {
    /// `-fuzzcachedir`
    pub flag: Option<PathBuf>,
    /// `$FUZZCACHE`
    pub fuzzcache: Option<OsString>,
    /// `$XDG_CACHE_HOME`
    pub xdg_cache_home: Option<OsString>,
    /// `$HOME`
    pub home: Option<OsString>,
}

impl CacheEnv {
    /// The cache root, by the precedence above. Empty variables count as
    /// unset, as XDG says.
    pub fn root(&self) -> Result<PathBuf> {
        let nonempty = |v: &Option<OsString>| v.as_ref().filter(|s| !s.is_empty()).cloned();
        if let Some(p) = &self.flag {
            return Ok(p.clone());
        }
        if let Some(p) = nonempty(&self.fuzzcache) {
            return Ok(PathBuf::from(p));
        }
        if let Some(p) = nonempty(&self.xdg_cache_home) {
            return Ok(PathBuf::from(p).join("fuzz"));
        }
        if let Some(p) = nonempty(&self.home) {
            return Ok(PathBuf::from(p).join(".cache").join("fuzz"));
        }
        Err(Error::Invalid(
            "cannot locate the corpus cache: set -fuzzcachedir, $FUZZCACHE or $HOME".into(),
        ))
    }
}

/// A library's name: its file name without a leading `lib` and without
/// `.so` and anything after it. `libpng_read.so.1` and `png_read.so` both
/// give `png_read`.
pub fn library_name(path: &Path) -> String {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = match file.find(".so") {
        Some(i) if i > 0 => &file[..i],
        _ => &file[..],
    };
    let stem = match stem.strip_prefix("lib") {
        Some(s) if !s.is_empty() => s,
        _ => stem,
    };
    stem.to_string()
}

/// The cache id of a library: `<name>-<16 hex digits>`. The library must
/// exist, since its canonical path is hashed.
pub fn library_id(path: &Path) -> Result<String> {
    let canon = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let digest = crate::digest::sha256_hex(canon.as_os_str().as_encoded_bytes());
    Ok(format!("{}-{}", library_name(path), &digest[..16]))
}

/// The generated-corpus directory of one target of one library.
pub fn target_dir(root: &Path, library_id: &str, target: &str) -> PathBuf {
    root.join(library_id).join(target)
}

/// The seed-corpus directory of a target under a `testdata` directory:
/// `<testdata>/fuzz/<Target>/`, as Go lays it out.
pub fn seed_dir(testdata: &Path, target: &str) -> PathBuf {
    testdata.join("fuzz").join(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(library_name(Path::new("/x/libpng_read.so.1")), "png_read");
        assert_eq!(library_name(Path::new("png_read.so")), "png_read");
        assert_eq!(library_name(Path::new("lib.so")), "lib");
        assert_eq!(library_name(Path::new("target")), "target");
    }

    #[test]
    fn precedence() {
        let mut env = CacheEnv {
            flag: None,
            fuzzcache: Some("/fc".into()),
            xdg_cache_home: Some("/xdg".into()),
            home: Some("/h/u".into()),
        };
        assert_eq!(env.root().unwrap(), PathBuf::from("/fc"));
        env.fuzzcache = Some("".into());
        assert_eq!(env.root().unwrap(), PathBuf::from("/xdg/fuzz"));
        env.xdg_cache_home = None;
        assert_eq!(env.root().unwrap(), PathBuf::from("/h/u/.cache/fuzz"));
        env.flag = Some("/flag".into());
        assert_eq!(env.root().unwrap(), PathBuf::from("/flag"));
        assert!(CacheEnv::default().root().is_err());
    }

    #[test]
    fn id_is_stable_and_path_dependent() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("libfoo.so");
        std::fs::write(&a, b"x").unwrap();
        let id = library_id(&a).unwrap();
        assert!(id.starts_with("foo-") && id.len() == 4 + 16, "{id}");
        std::fs::write(&a, b"rebuilt").unwrap();
        assert_eq!(library_id(&a).unwrap(), id);
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let b = sub.join("libfoo.so");
        std::fs::write(&b, b"x").unwrap();
        assert_ne!(library_id(&b).unwrap(), id);
    }
}
