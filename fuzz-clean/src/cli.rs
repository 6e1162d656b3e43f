//! The command line of fuzz-clean, which removes the generated corpus
//! cache. `-help` and the man page come from this one definition.

// The doc comments below are -help text (`testdata/fuzz/<Target>/` is a
// path to read, not HTML): rustdoc's HTML check does not apply.
#![allow(rustdoc::invalid_html_tags)]

use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Parser, Debug)]
#[command(
    name = "fuzz-clean",
    version,
    about = "Remove the generated corpus cache, or part of it",
    long_about = "Remove the generated corpus cache, or part of it.

fuzz-run keeps the inputs it finds interesting in a cache, laid out as <cache>/<library \
    id>/<Target>/<entry>. With no LIB.so, fuzz-clean removes the whole cache, as go clean \
    -fuzzcache does (the cache directory itself and its CACHEDIR.TAG are kept); with LIB.so, only \
    that library's cache; with -target, only that target's. With -older, only entries that no run \
    has touched for that long are removed, and the target and library directories they leave \
    empty. One line on standard error says what was removed: entries and bytes.

fuzz-clean removes only what is its own. The cache directory must carry the CACHEDIR.TAG that \
    fuzz-run writes when it creates it; a directory without one is cleaned (and tagged) only if \
    everything in it is laid out as the cache is, and is otherwise refused. /, $HOME and the \
    directories above it, and a directory with .git in it, are refused whatever they hold. Inside \
    the cache, only names laid out as the cache's are removed; anything else is left in place with \
    a warning naming it. A symbolic link is removed as a link; what it points to is left alone. \
    The seed corpus in testdata/fuzz/ is never touched."
)]
pub struct Cli {
    /// Remove only this library's cache (default: every library's)
    ///
    /// The library must exist: its cache directory is named after its canonical path.
    #[arg(value_name = "LIB.so")]
    pub lib: Option<PathBuf>,

    /// Remove only the cache of the target NAME
    ///
    /// With LIB.so, that library's target NAME; without, the target NAME in every library's cache.
    #[arg(long = "target", value_name = "NAME")]
    pub target: Option<String>,

    /// Remove only entries untouched for DURATION (720h, 30d)
    ///
    /// An entry last modified more than DURATION ago goes; so do the
    /// target and library directories left empty. fuzz-run touches the
    /// entries it loads, so this trims what no run has used. DURATION is
    /// Go's (720h, 1h30m, 90m) or in days (30d), and positive: it is an
    /// age, not a limit. An entry dated in the future counts as new.
    #[arg(long = "older", value_name = "DURATION", value_parser = parse_older)]
    pub older: Option<Duration>,

    /// Remove nothing; print what would be removed
    ///
    /// Each path goes to standard output, one per line, entries before the directories that hold
    /// them; the summary on standard error says "would remove".
    #[arg(long = "n")]
    pub dry_run: bool,

    /// The cache directory [default: $FUZZCACHE, $XDG_CACHE_HOME/fuzz, $HOME/.cache/fuzz]
    ///
    /// It wins over the environment. A relative path is resolved against
    /// the working directory. A directory that is not our cache is
    /// refused (see DESCRIPTION).
    #[arg(long = "fuzzcachedir", value_name = "DIR")]
    pub fuzzcachedir: Option<PathBuf>,
}

/// `-older`: a Go duration, or days. It is an age, not a limit, so 0 (which
/// would mean "everything") is refused: a whole clean is spelled without it.
fn parse_older(s: &str) -> Result<Duration, String> {
    let d = fuzz_core::duration::parse(s)?;
    if d.is_zero() {
        return Err(format!(
            "{s:?} is no age: -older takes a positive duration (to remove every entry, leave \
                -older out)"
        ));
    }
    Ok(d)
}

pub const MAN: fuzz_cli::man::Extra = fuzz_cli::man::Extra {
    sections: &[
        (
            "EXIT STATUS",
            fuzz_cli::man::exit_status!(
                "0 :: Success: what was asked is removed (with -n, listed), or there was nothing to
remove.

2 :: Misuse: a bad flag or value, a LIB.so that is not a file, a directory that is not a cache and
is refused (see DESCRIPTION), an entry that could not be removed.

fuzz-clean finds nothing, so it never exits 1."
            ),
        ),
        (
            "FILES",
            "\
<cache>/<library id>/<Target>/ :: The generated corpus of one target of one library: one file per
input, in Go's \"go test fuzz v1\" format. The library id is the library's name (its file name
without \"lib\" and \".so...\"), a dash, and the first 16 hex digits of the SHA-256 of its
canonical absolute path, so a rebuilt library keeps its cache, and a library that was moved or
deleted leaves an orphan directory that only a whole clean or -older removes.

<cache> :: The cache directory: -fuzzcachedir DIR if given, else $FUZZCACHE, else
$XDG_CACHE_HOME/fuzz, else $HOME/.cache/fuzz. Relative paths are resolved against the working
directory (a relative XDG_CACHE_HOME is ignored, as the XDG Base Directory specification says). If
it is a symbolic link to a directory, the link is resolved once and the directory it names is
cleaned; the link itself is kept, and so is the cache directory.

<cache>/CACHEDIR.TAG :: The Cache Directory Tagging file (https://bford.info/cachedir/), written by
the tool that creates the cache. Backup tools skip a tagged directory, and fuzz-clean cleans only a
tagged one, or an untagged one laid out entirely as <library id>/<Target>/<entry>, where an entry
is named by 16 or 64 hex digits of its SHA-256 (or is .tmp-..., an unfinished write); such a
directory is tagged by the first clean.

testdata/fuzz/<Target>/ :: The seed corpus, committed with the code. fuzz-clean never touches it.",
        ),
        (
            "ENVIRONMENT",
            "\
FUZZCACHE :: The cache directory, unless -fuzzcachedir is given.

XDG_CACHE_HOME :: When set and FUZZCACHE is not, the cache is $XDG_CACHE_HOME/fuzz.

HOME :: Otherwise the cache is $HOME/.cache/fuzz. A cache path that is $HOME, or a directory above
it, is refused whatever it holds.

Empty variables count as unset.",
        ),
        (
            "NOTES",
            "\
The cache grows without bound as long as fuzz-run finds new inputs. fuzz-run touches each cache
entry it loads, so an entry's modification time tells when a run last used it: run fuzz-clean
-older from cron, or before a CI job saves its cache, to keep only what recent runs have used.
Durations are Go's (300ms, 1h30m, 720h) with d for days (30d).

Nothing is ever followed out of the cache: symbolic links met inside are removed as links. A file
or directory inside the cache that does not have the cache's shape (a stray notes.txt, a hidden
file, a directory where an entry belongs) is left in place with a warning naming it, and the exit
status stays 0. Removal goes on past an entry that cannot be removed, with a warning naming it, and
then exits 2.

A directory that is not a cache is refused with exit 2, one line naming it and why, and nothing
removed: /, $HOME and the directories above it, a directory holding .git, and an untagged directory
holding anything outside the cache's layout (fuzz-clean -fuzzcachedir . in a project, say).

Without -n, standard output stays empty and one summary line goes to standard error, e.g.
\"fuzz-clean: removed 12 entries (3.4 KiB) from ~/.cache/fuzz\". With -n, the paths that would be
removed are printed on standard output, files before the directories holding them, and the summary
says \"would remove\". A cache directory that does not exist has nothing to remove: exit 0.",
        ),
        (
            "EXAMPLES",
            "\
Remove the whole cache, or show what that would remove:

    fuzz-clean
    fuzz-clean -n

Remove one library's cache, or one target's:

    fuzz-clean ./libpng_read.so
    fuzz-clean ./harness.so -target FuzzParse

Keep the cache bounded: drop entries no run has used for 30 days, in every library:

    fuzz-clean -older 30d
    fuzz-clean -older 720h -fuzzcachedir /var/cache/fuzz",
        ),
    ],
};
