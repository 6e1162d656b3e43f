//! Where the generated corpus lives.
//!
//! `<cache>/<library id>/<Target>/`, where `<cache>` is `-fuzzcachedir` if
//! given, else `$FUZZCACHE`, else `$XDG_CACHE_HOME/fuzz`, else
//! `$HOME/.cache/fuzz`; and `<library id>` is the library's name, a `-`, and
//! the first 16 hex digits of the SHA-256 of its canonical absolute path, so
//! that a rebuilt library keeps its cache and two libraries of the same name
//! in different places do not share one. The caller reads the environment
//! and passes it in: this crate reads none.
//!
//! The cache is the one tree our tools remove wholesale, so it must be told
//! apart from anything else a mistyped `FUZZCACHE` could name. Its root
//! carries a `CACHEDIR.TAG` (the Cache Directory Tagging convention that
//! backup tools and cargo know), written by the tool that creates the root,
//! and everything in it has the cache's shape, which [`is_library_id`],
//! [`is_target_name`] and [`is_entry_name`] state.

use crate::error::{Error, Result};
use std::ffi::{OsStr, OsString};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// What decides the cache root, as the binaries read it.
#[derive(Default, Debug, Clone)]
pub struct CacheEnv {
    /// The working directory at start: relative settings are resolved
    /// against it, so that every tool finds the same root.
    pub cwd: PathBuf,
    /// `-fuzzcachedir`
    pub flag: Option<PathBuf>,
    /// `$FUZZCACHE`
    pub fuzzcache: Option<OsString>,
    /// `$XDG_CACHE_HOME`
    pub xdg_cache_home: Option<OsString>,
    /// `$HOME`
    pub home: Option<OsString>,
}

/// Which setting named the cache root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Flag,
    FuzzCache,
    XdgCacheHome,
    Home,
}

impl Source {
    /// The setting as a user spells it: `-fuzzcachedir`, `$FUZZCACHE`, …
    pub fn name(self) -> &'static str {
        match self {
            Source::Flag => "-fuzzcachedir",
            Source::FuzzCache => "$FUZZCACHE",
            Source::XdgCacheHome => "$XDG_CACHE_HOME",
            Source::Home => "$HOME",
        }
    }
}

impl CacheEnv {
    /// The cache root, absolute, by the precedence above, and the setting
    /// it came from. Empty variables count as unset; a relative
    /// `XDG_CACHE_HOME` is ignored, as the XDG spec says; any other
    /// relative path is resolved against [`CacheEnv::cwd`].
    pub fn locate(&self) -> Result<(PathBuf, Source)> {
        let nonempty = |v: &Option<OsString>| v.as_ref().filter(|s| !s.is_empty()).cloned();
        // Joined, and `.` components dropped (`FUZZCACHE=.` is the working
        // directory itself, not `<cwd>/.`).
        let absolute = |p: PathBuf| self.cwd.join(p).components().collect::<PathBuf>();
        if let Some(p) = &self.flag {
            if p.as_os_str().is_empty() {
                return Err(Error::Invalid("-fuzzcachedir: empty path".into()));
            }
            return Ok((absolute(p.clone()), Source::Flag));
        }
        if let Some(p) = nonempty(&self.fuzzcache) {
            return Ok((absolute(p.into()), Source::FuzzCache));
        }
        if let Some(p) = nonempty(&self.xdg_cache_home).map(PathBuf::from) {
            if p.is_absolute() {
                return Ok((p.join("fuzz"), Source::XdgCacheHome));
            }
        }
        if let Some(p) = nonempty(&self.home) {
            return Ok((
                absolute(PathBuf::from(p).join(".cache").join("fuzz")),
                Source::Home,
            ));
        }
        Err(Error::Invalid(
            "cannot locate the corpus cache: set -fuzzcachedir, $FUZZCACHE or $HOME".into(),
        ))
    }

    /// The cache root alone; see [`CacheEnv::locate`].
    pub fn root(&self) -> Result<PathBuf> {
        self.locate().map(|(p, _)| p)
    }
}

/// The file that marks a directory as a cache, as
/// <https://bford.info/cachedir/> defines it.
pub const TAG_FILE: &str = "CACHEDIR.TAG";

/// The first bytes of a [`TAG_FILE`], fixed by the convention.
pub const TAG_SIGNATURE: &str = "Signature: 8a477f597d28d172789f06886806bc55";

/// True if `root` holds a regular `CACHEDIR.TAG` that starts with the
/// signature (a link there does not count: it could name any file).
pub fn is_tagged(root: &Path) -> bool {
    let path = root.join(TAG_FILE);
    let regular = path.symlink_metadata().is_ok_and(|m| m.is_file());
    regular && std::fs::read(&path).is_ok_and(|b| b.starts_with(TAG_SIGNATURE.as_bytes()))
}

/// Writes the `CACHEDIR.TAG` of a cache root, atomically.
pub fn write_tag(root: &Path) -> Result<()> {
    let text = format!(
        "{TAG_SIGNATURE}\n\
         # This file is a cache directory tag created by the fuzz tools.\n\
         # It marks this directory as their generated corpus cache, which\n\
         # fuzz-clean may remove. For information about cache directory tags\n\
         # see https://bford.info/cachedir/\n"
    );
    crate::store::fsutil::write_atomic(&root.join(TAG_FILE), text.as_bytes())
}

/// Creates `dir`, a directory below the cache root `root`, and its
/// parents. When this call creates the root, or finds it empty, it tags it:
/// a root that already holds something untagged is not ours to mark.
pub fn create_dir(root: &Path, dir: &Path) -> Result<()> {
    let fresh = match std::fs::read_dir(root) {
        Ok(mut rd) => rd.next().is_none(),
        Err(e) if e.kind() == ErrorKind::NotFound => true,
        Err(e) => return Err(Error::io(root, e)),
    };
    if fresh {
        crate::store::fsutil::create_dir_all(root)?;
        if !is_tagged(root) {
            write_tag(root)?;
        }
    }
    crate::store::fsutil::create_dir_all(dir)
}

/// True for a name the cache gives a library's directory:
/// `<name>-<16 lowercase hex digits>`, as [`library_id`] makes it.
pub fn is_library_id(name: &OsStr) -> bool {
    // Bytes: a library's file name need not be UTF-8, and its id keeps it.
    let name = name.as_encoded_bytes();
    match name.iter().rposition(|&b| b == b'-') {
        Some(dash) => {
            let (lib, hex) = (&name[..dash], &name[dash + 1..]);
            !lib.is_empty()
                && lib[0] != b'.'
                && !lib.contains(&b'/')
                && hex.len() == 16
                && hex
                    .iter()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
        }
        None => false,
    }
}

/// True for a name a target's directory can have (the one rule:
/// [`crate::store::is_target_name`]).
pub fn is_target_name(name: &OsStr) -> bool {
    crate::store::is_target_name(name)
}

/// True for a name a cache entry can have: a digest name, or the
/// temporary file of an atomic write that did not finish (`.tmp-…`).
pub fn is_entry_name(name: &OsStr) -> bool {
    name.to_str().is_some_and(|n| {
        crate::store::digest::is_digest_name(n)
            || n.strip_prefix(".tmp-").is_some_and(|rest| {
                !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
    })
}

/// The first path below `root` that is not laid out as the cache is
/// (`<lib>-<16 hex>/<Target>/<entry>`, real directories and regular files,
/// and the tag), with why; `None` when everything is. Stops at the first.
pub fn first_stray(root: &Path) -> Result<Option<(PathBuf, &'static str)>> {
    for lib in sorted_dir(root)? {
        let name = lib.file_name().unwrap_or_default();
        if name == TAG_FILE && lib.symlink_metadata().is_ok_and(|m| m.is_file()) {
            continue;
        }
        if !is_library_id(name) {
            return Ok(Some((lib, "not named <library>-<16 hex digits>")));
        }
        if !is_real_dir(&lib)? {
            return Ok(Some((lib, "not a directory")));
        }
        for target in sorted_dir(&lib)? {
            if !is_target_name(target.file_name().unwrap_or_default()) {
                return Ok(Some((target, "a hidden name, not a target")));
            }
            if !is_real_dir(&target)? {
                return Ok(Some((target, "not a directory")));
            }
            for entry in sorted_dir(&target)? {
                if !is_entry_name(entry.file_name().unwrap_or_default()) {
                    return Ok(Some((entry, "not named by a digest")));
                }
                let meta = entry.symlink_metadata().map_err(|e| Error::io(&entry, e))?;
                if !meta.is_file() {
                    return Ok(Some((entry, "not a regular file")));
                }
            }
        }
    }
    Ok(None)
}

fn sorted_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        out.push(e.map_err(|e| Error::io(dir, e))?.path());
    }
    out.sort();
    Ok(out)
}

fn is_real_dir(path: &Path) -> Result<bool> {
    let meta = path.symlink_metadata().map_err(|e| Error::io(path, e))?;
    Ok(meta.is_dir())
}

/// A library's name, as the bytes of its file name: without a leading
/// `lib` and without `.so` and anything after it. `libpng_read.so.1` and
/// `png_read.so` both give `png_read`.
fn library_stem(path: &Path) -> &[u8] {
    let file = path.file_name().unwrap_or_default().as_encoded_bytes();
    let stem = match file.windows(3).position(|w| w == b".so") {
        Some(i) if i > 0 => &file[..i],
        _ => file,
    };
    match stem.strip_prefix(b"lib") {
        Some(s) if !s.is_empty() => s,
        _ => stem,
    }
}

/// A library's name (`library_stem`) for people: a byte that is not
/// UTF-8 shows as U+FFFD. A name that must stay exact uses
/// [`target_name`] (which refuses such a name) or [`library_id`] (which
/// keeps the bytes).
pub fn library_name(path: &Path) -> String {
    String::from_utf8_lossy(library_stem(path)).into_owned()
}

/// The name of a library's libFuzzer target, which is the library's name
/// (`library_stem`). A file name that is not UTF-8 is refused: a target
/// name is a directory name in testdata/fuzz/, a `-run` pattern and a word
/// of a re-run command, and U+FFFD in its place would name another. The
/// error does not name the file: the caller's message does.
pub fn target_name(path: &Path) -> Result<String> {
    String::from_utf8(library_stem(path).to_vec()).map_err(|_| {
        Error::Invalid(
            "the library's file name is not UTF-8, and its libFuzzer target would be named after \
             it: rename the library"
                .into(),
        )
    })
}

/// The cache id of a library: `<name>-<16 hex digits>`, the name's bytes
/// as they are. The library must exist, since its canonical path is
/// hashed.
pub fn library_id(path: &Path) -> Result<OsString> {
    let canon = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let digest = crate::store::digest::sha256_hex(canon.as_os_str().as_encoded_bytes());
    let mut id = library_stem(path).to_vec();
    id.push(b'-');
    id.extend_from_slice(&digest.as_bytes()[..16]);
    Ok(std::os::unix::ffi::OsStringExt::from_vec(id))
}

/// The generated-corpus directory of one target of one library.
pub fn target_dir(root: &Path, library_id: &OsStr, target: &str) -> PathBuf {
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
            cwd: "/cwd".into(),
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
    fn relative_settings_resolve_against_the_start_directory() {
        let env = |flag: Option<&str>, fc: Option<&str>, xdg: Option<&str>, home: Option<&str>| {
            CacheEnv {
                cwd: "/srv/proj".into(),
                flag: flag.map(PathBuf::from),
                fuzzcache: fc.map(OsString::from),
                xdg_cache_home: xdg.map(OsString::from),
                home: home.map(OsString::from),
            }
            .locate()
            .unwrap()
        };
        let p = |s: &str| PathBuf::from(s);
        assert_eq!(
            env(Some("c"), None, None, None),
            (p("/srv/proj/c"), Source::Flag)
        );
        assert_eq!(
            env(None, Some("."), None, None),
            (p("/srv/proj"), Source::FuzzCache)
        );
        assert_eq!(
            env(None, Some("/a/./b"), None, None),
            (p("/a/b"), Source::FuzzCache)
        );
        // A relative XDG_CACHE_HOME is ignored: $HOME decides.
        assert_eq!(
            env(None, None, Some("rel"), Some("/h")),
            (p("/h/.cache/fuzz"), Source::Home)
        );
        assert_eq!(
            env(None, None, Some("/x"), Some("/h")),
            (p("/x/fuzz"), Source::XdgCacheHome)
        );
        assert!(CacheEnv {
            flag: Some(PathBuf::new()),
            ..CacheEnv::default()
        }
        .locate()
        .is_err());
    }

    #[test]
    fn names_of_the_layout() {
        let os = OsStr::new;
        assert!(is_library_id(os("png_read-0123456789abcdef")));
        assert!(is_library_id(os("a-b-0123456789abcdef")));
        for bad in [
            "png_read",
            "-0123456789abcdef",
            "x-0123456789ABCDEF",
            "x-0123",
            ".x-0123456789abcdef",
            "src",
        ] {
            assert!(!is_library_id(os(bad)), "{bad}");
        }
        assert!(is_target_name(os("FuzzParse")) && is_target_name(os("png-read.v2")));
        assert!(!is_target_name(os(".git")) && !is_target_name(os("")));
        assert!(is_entry_name(os("0123456789abcdef")));
        assert!(is_entry_name(os(&"a".repeat(64))));
        assert!(is_entry_name(os(".tmp-Ab12xZ")));
        for bad in [
            "main.c",
            "0123456789abcde",
            ".tmp-",
            ".gitignore",
            "0123456789ABCDEF",
        ] {
            assert!(!is_entry_name(os(bad)), "{bad}");
        }
    }

    #[test]
    fn strays_and_tags() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        let target = root.join("foo-0123456789abcdef").join("FuzzA");
        create_dir(&root, &target).unwrap();
        assert!(is_tagged(&root), "a root this call made is tagged");
        std::fs::write(target.join("0123456789abcdef"), b"x").unwrap();
        assert_eq!(first_stray(&root).unwrap(), None);
        std::fs::write(target.join("notes.txt"), b"x").unwrap();
        let (path, _) = first_stray(&root).unwrap().unwrap();
        assert_eq!(path, target.join("notes.txt"));
        std::fs::remove_file(target.join("notes.txt")).unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        assert_eq!(first_stray(&root).unwrap().unwrap().0, root.join("src"));

        // A root that already holds something is not tagged by a run.
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join("src")).unwrap();
        create_dir(&project, &project.join("foo-0123456789abcdef/FuzzA")).unwrap();
        assert!(!is_tagged(&project));
        // A tag that is a link, or lacks the signature, is no tag.
        std::os::unix::fs::symlink(root.join(TAG_FILE), project.join(TAG_FILE)).unwrap();
        assert!(!is_tagged(&project));
        std::fs::remove_file(project.join(TAG_FILE)).unwrap();
        std::fs::write(project.join(TAG_FILE), b"Signature: nope\n").unwrap();
        assert!(!is_tagged(&project));
    }

    #[test]
    fn id_is_stable_and_path_dependent() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("libfoo.so");
        std::fs::write(&a, b"x").unwrap();
        let id = library_id(&a).unwrap();
        let text = id.to_str().unwrap();
        assert!(text.starts_with("foo-") && text.len() == 4 + 16, "{text}");
        std::fs::write(&a, b"rebuilt").unwrap();
        assert_eq!(library_id(&a).unwrap(), id);
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let b = sub.join("libfoo.so");
        std::fs::write(&b, b"x").unwrap();
        assert_ne!(library_id(&b).unwrap(), id);
    }

    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes_in_the_id_and_names_no_target() {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join(OsStr::from_bytes(b"libf\xffo.so.1"));
        std::fs::write(&a, b"x").unwrap();
        let id = library_id(&a).unwrap().into_vec();
        assert!(id.starts_with(b"f\xffo-") && id.len() == 4 + 16);
        assert!(is_library_id(OsStr::from_bytes(&id)));
        assert_eq!(library_name(&a), "f\u{fffd}o");
        let e = target_name(&a).unwrap_err().to_string();
        assert!(e.starts_with("the library's file name is not UTF-8"), "{e}");
        assert_eq!(target_name(Path::new("/x/libpng.so.1")).unwrap(), "png");
    }
}
