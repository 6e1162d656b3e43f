//! fuzz-clean against real cache trees: where the cache is found, what each
//! selection removes, `-older`, `-n`, symbolic links, and every refusal
//! (exit 2, one line, nothing removed).
//!
//! Tests that point the tool at `/` pass `-n` too, so that even a broken
//! refusal could only list, never remove.

use crate::common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

const TOOL: &str = "fuzz-clean";

/// Writes `<cache>/<lib>/<target>/<name>` with `bytes`, in a cache tagged
/// as fuzz-run tags the caches it creates.
fn entry(cache: &Path, lib: &str, target: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = cache.join(lib).join(target);
    fs::create_dir_all(&dir).unwrap();
    if !fuzz_core::store::cache::is_tagged(cache) {
        fuzz_core::store::cache::write_tag(cache).unwrap();
    }
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

/// [`entry`] at `<cache>/<LIB>/<TARGET>/<NAME>`, given as one path.
fn entry_at(cache: &Path, lib_target_name: &str, bytes: &[u8]) -> PathBuf {
    let parts: Vec<&str> = lib_target_name.split('/').collect();
    let [lib, target, name] = parts[..] else {
        panic!("not LIB/TARGET/NAME: {lib_target_name}");
    };
    entry(cache, lib, target, name, bytes)
}

/// Sets a file's modification time `days` in the past.
fn age_days(path: &Path, days: u64) {
    let t = SystemTime::now() - Duration::from_secs(days * 86400);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// Every path below `dir`, relative, sorted, links included (not followed),
/// but for the cache's tag.
fn tree(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter(|e| {
            let e = e.as_ref().unwrap();
            !(e.depth() == 1 && e.file_name() == "CACHEDIR.TAG")
        })
        .map(|e| {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            if e.path_is_symlink() {
                format!("{rel}@")
            } else if e.file_type().is_dir() {
                format!("{rel}/")
            } else {
                rel
            }
        })
        .collect();
    out.sort();
    out
}

/// A fake library file and its cache id as fuzz-run computes it.
fn fake_lib(dir: &Path, name: &str) -> (PathBuf, String) {
    let p = dir.join(name);
    fs::write(&p, b"\x7fELF not really").unwrap();
    let id = fuzz_core::store::cache::library_id(&p).unwrap();
    (p, id.into_string().unwrap())
}

fn canon(p: &Path) -> PathBuf {
    fs::canonicalize(p).unwrap()
}

fn lines(r: &Run) -> Vec<String> {
    r.out().lines().map(str::to_string).collect()
}

/// Runs fuzz-clean in `dir`, which must succeed and say `said` in its one
/// summary line on stderr.
#[track_caller]
fn cleans(dir: &Path, args: &[&str], said: &str) -> Run {
    let r = run_in(dir, TOOL, args).expect(0);
    assert!(summary(&r).contains(said), "{}", r.stderr);
    r
}

/// The one summary line on stderr.
#[track_caller]
fn summary(r: &Run) -> &str {
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "want one line on stderr:\n{}", r.stderr);
    assert!(lines[0].starts_with("fuzz-clean: "), "{}", lines[0]);
    lines[0]
}

#[test]
fn whole_cache_goes_and_the_cache_dir_stays() {
    let d = tempdir();
    let cache = d.path().join("cache");
    entry_at(
        &cache,
        "foo-0123456789abcdef/FuzzA/aaaaaaaaaaaaaaaa",
        b"go test fuzz v1\n[]byte(\"a\")\n",
    );
    entry_at(
        &cache,
        "foo-0123456789abcdef/FuzzB/bbbbbbbbbbbbbbbb",
        &[b'x'; 2000],
    );
    entry_at(
        &cache,
        "bar-fedcba9876543210/bar/cccccccccccccccc",
        &[b'y'; 2000],
    );
    let r = run_in(d.path(), TOOL, &["-fuzzcachedir", "cache"]).expect(0);
    assert!(
        r.stdout.is_empty(),
        "nothing on stdout without -n: {}",
        r.out()
    );
    let line = summary(&r);
    let size = 28 + 2000 + 2000;
    assert_eq!(
        line,
        format!(
            "fuzz-clean: removed 3 entries ({:.1} KiB) from {}",
            size as f64 / 1024.0,
            canon(&cache).display()
        )
    );
    assert!(cache.is_dir(), "the cache directory itself is kept");
    assert_eq!(tree(&cache), Vec::<String>::new());
    assert!(
        fuzz_core::store::cache::is_tagged(&cache),
        "and so is its CACHEDIR.TAG"
    );

    // Again: nothing left.
    cleans(
        d.path(),
        &["-fuzzcachedir", "cache"],
        "nothing to remove in",
    );
}

#[test]
fn missing_cache_is_nothing_to_remove() {
    let d = tempdir();
    let r = run_in(d.path(), TOOL, &["-fuzzcachedir", "no/such/cache"]).expect(0);
    assert!(r.stdout.is_empty());
    let line = summary(&r);
    let want = d.path().join("no/such/cache");
    assert!(
        line.contains(&format!("nothing to remove in {}", want.display())),
        "{line}"
    );
    // The default location, $HOME/.cache/fuzz, missing too.
    let r = run_in(d.path(), TOOL, &["-n"]).expect(0);
    assert!(r.stdout.is_empty());
    assert!(summary(&r).contains(".cache/fuzz"), "{}", r.stderr);
}

#[test]
fn cache_location_precedence() {
    let d = tempdir();
    let flag = d.path().join("flag");
    let fuzzcache = d.path().join("fc");
    let xdg = d.path().join("xdg");
    let home = d.path().join("home");
    let places = [
        ("flag", flag.clone()),
        ("fc", fuzzcache.clone()),
        ("xdg", xdg.join("fuzz")),
        ("home", home.join(".cache").join("fuzz")),
    ];
    // Each place's entry is named after its index: 0000…, 1111…, ….
    let hexname = |i: usize| i.to_string().repeat(16);
    for (i, (name, dir)) in places.iter().enumerate() {
        entry(
            dir,
            "lib-0000000000000000",
            "T",
            &hexname(i),
            name.as_bytes(),
        );
    }
    let listed = |flag_arg: bool, fc: Option<&Path>, x: Option<&Path>| {
        let mut args = vec!["-n"];
        let f = flag.to_str().unwrap().to_string();
        if flag_arg {
            args.extend(["-fuzzcachedir", &f]);
        }
        let mut c = cmd(d.path(), TOOL, &args);
        if let Some(p) = fc {
            c.env("FUZZCACHE", p);
        }
        if let Some(p) = x {
            c.env("XDG_CACHE_HOME", p);
        }
        let r = run_command(c).expect(0);
        let l = lines(&r);
        assert_eq!(l.len(), 3, "one entry, target and library dirs: {l:?}");
        PathBuf::from(&l[0])
    };
    let expect = |i: usize| {
        let dir = &places[i].1;
        canon(dir)
            .join("lib-0000000000000000")
            .join("T")
            .join(hexname(i))
    };
    assert_eq!(listed(true, Some(&fuzzcache), Some(&xdg)), expect(0));
    assert_eq!(listed(false, Some(&fuzzcache), Some(&xdg)), expect(1));
    // An empty variable counts as unset.
    assert_eq!(listed(false, Some(Path::new("")), Some(&xdg)), expect(2));
    assert_eq!(listed(false, None, Some(&xdg)), expect(2));
    assert_eq!(listed(false, None, Some(Path::new(""))), expect(3));
    assert_eq!(listed(false, None, None), expect(3));

    // And a real run removes only from the chosen cache.
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("FUZZCACHE", &fuzzcache).env("XDG_CACHE_HOME", &xdg);
    let r = run_command(c).expect(0);
    assert!(summary(&r).contains(&canon(&fuzzcache).display().to_string()));
    assert_eq!(tree(&fuzzcache), Vec::<String>::new());
    for (_, dir) in [&places[0], &places[2], &places[3]] {
        assert_eq!(tree(dir).len(), 3, "{} untouched", dir.display());
    }
}

#[test]
fn no_home_and_no_cache_setting_is_misuse() {
    let d = tempdir();
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env_remove("HOME");
    let r = run_command(c).expect(2);
    r.one_line_error(TOOL, "-fuzzcachedir");
}

#[test]
fn one_library() {
    let d = tempdir();
    let cache = d.path().join("cache");
    let (_, foo) = fake_lib(d.path(), "libfoo.so");
    entry(&cache, &foo, "foo", "1111111111111111", b"1");
    entry(&cache, &foo, "FuzzX", "2222222222222222", b"22");
    entry_at(&cache, "foo-0000000000000000/foo/3333333333333333", b"333");
    entry_at(&cache, "bar-1111111111111111/bar/4444444444444444", b"4444");
    let before = tree(&cache);
    let r = run_in(d.path(), TOOL, &["libfoo.so", "-fuzzcachedir", "cache"]).expect(0);
    assert!(r.stdout.is_empty());
    assert_eq!(
        summary(&r),
        format!(
            "fuzz-clean: removed 2 entries (3 B) from {}",
            canon(&cache).display()
        )
    );
    let want: Vec<String> = before
        .into_iter()
        .filter(|p| !p.starts_with(&foo))
        .collect();
    assert_eq!(tree(&cache), want);
    assert!(want.iter().any(|p| p.starts_with("foo-0000000000000000")));

    // Its id does not depend on how LIB is spelled.
    entry(&cache, &foo, "foo", "5555555555555555", b"5");
    let lib = d.path().join("libfoo.so");
    cleans(
        d.path(),
        &[lib.to_str().unwrap(), "-fuzzcachedir=cache"],
        "removed 1 entry (1 B)",
    );
    assert!(!cache.join(&foo).exists());
}

#[test]
fn one_target_of_one_library() {
    let d = tempdir();
    let cache = d.path().join("cache");
    let (_, foo) = fake_lib(d.path(), "libfoo.so");
    entry(&cache, &foo, "FuzzA", "1111111111111111", b"1");
    entry(&cache, &foo, "FuzzA", "2222222222222222", b"2");
    entry(&cache, &foo, "FuzzB", "3333333333333333", b"3");
    entry_at(&cache, "bar-1111111111111111/FuzzA/4444444444444444", b"4");
    cleans(
        d.path(),
        &["libfoo.so", "-target", "FuzzA", "-fuzzcachedir", "cache"],
        "removed 2 entries (2 B)",
    );
    assert_eq!(
        tree(&cache),
        [
            "bar-1111111111111111/".to_string(),
            "bar-1111111111111111/FuzzA/".into(),
            "bar-1111111111111111/FuzzA/4444444444444444".into(),
            format!("{foo}/"),
            format!("{foo}/FuzzB/"),
            format!("{foo}/FuzzB/3333333333333333"),
        ]
    );
    // The last target of a library takes the library's directory with it.
    run_in(
        d.path(),
        TOOL,
        &["libfoo.so", "-target", "FuzzB", "-fuzzcachedir", "cache"],
    )
    .expect(0);
    assert!(!cache.join(&foo).exists());
    // A target the library has none of: nothing to remove.
    cleans(
        d.path(),
        &["libfoo.so", "-target", "FuzzZ", "-fuzzcachedir", "cache"],
        "nothing to remove",
    );
}

#[test]
fn one_target_in_every_library() {
    let d = tempdir();
    let cache = d.path().join("cache");
    entry_at(&cache, "foo-0000000000000000/FuzzA/1111111111111111", b"1");
    entry_at(&cache, "foo-0000000000000000/FuzzB/2222222222222222", b"2");
    entry_at(&cache, "bar-1111111111111111/FuzzA/3333333333333333", b"3");
    entry_at(&cache, "baz-2222222222222222/FuzzC/4444444444444444", b"4");
    cleans(
        d.path(),
        &["-target", "FuzzA", "-fuzzcachedir", "cache"],
        "removed 2 entries (2 B)",
    );
    assert_eq!(
        tree(&cache),
        [
            "baz-2222222222222222/",
            "baz-2222222222222222/FuzzC/",
            "baz-2222222222222222/FuzzC/4444444444444444",
            "foo-0000000000000000/",
            "foo-0000000000000000/FuzzB/",
            "foo-0000000000000000/FuzzB/2222222222222222",
        ]
    );
}

/// The cache of the -older tests: three entries 40 days old (two under
/// foo, one under bar), one 20 days old beside the one under bar, and a new
/// one beside the second under foo. 9 B are 40 days old.
fn aged_cache(cache: &Path) {
    let old1 = entry_at(cache, "foo-0000000000000000/FuzzA/0d1d000000000001", b"old");
    let old2 = entry_at(cache, "foo-0000000000000000/FuzzB/0d1d000000000002", b"old");
    entry_at(cache, "foo-0000000000000000/FuzzB/0e0e000000000000", b"new");
    let old3 = entry_at(cache, "bar-1111111111111111/bar/0d1d000000000003", b"old");
    let recent = entry_at(
        cache,
        "bar-1111111111111111/bar/0ece000000000000",
        b"recent",
    );
    for p in [&old1, &old2, &old3] {
        age_days(p, 40);
    }
    age_days(&recent, 20);
}

#[test]
fn older_with_n_lists_only_stale_entries_and_removes_nothing() {
    let d = tempdir();
    let cache = d.path().join("cache");
    aged_cache(&cache);
    // With -n, the entries older than 30d are listed and nothing goes.
    let before = snapshot(d.path());
    let r = run_in(
        d.path(),
        TOOL,
        &["-older", "30d", "-n", "-fuzzcachedir", "cache"],
    )
    .expect(0);
    assert_eq!(snapshot(d.path()), before);
    let c = canon(&cache);
    assert_eq!(
        lines(&r),
        [
            c.join("bar-1111111111111111/bar/0d1d000000000003"),
            c.join("foo-0000000000000000/FuzzA/0d1d000000000001"),
            c.join("foo-0000000000000000/FuzzA"),
            c.join("foo-0000000000000000/FuzzB/0d1d000000000002"),
        ]
        .map(|p| p.display().to_string())
    );
    assert!(
        summary(&r).contains("would remove 3 entries (9 B)"),
        "{}",
        r.stderr
    );
}

#[test]
fn older_removes_only_stale_entries_and_the_dirs_they_empty() {
    let d = tempdir();
    let cache = d.path().join("cache");
    aged_cache(&cache);
    // 720h is the previous test's 30d: the three entries it lists go.
    let r = run_in(d.path(), TOOL, &["-older=720h", "-fuzzcachedir", "cache"]).expect(0);
    assert!(r.stdout.is_empty());
    assert!(
        summary(&r).contains("removed 3 entries (9 B)"),
        "{}",
        r.stderr
    );
    assert_eq!(
        tree(&cache),
        [
            "bar-1111111111111111/",
            "bar-1111111111111111/bar/",
            "bar-1111111111111111/bar/0ece000000000000",
            "foo-0000000000000000/",
            "foo-0000000000000000/FuzzB/",
            "foo-0000000000000000/FuzzB/0e0e000000000000",
        ]
    );

    // Go's duration form; the library directory goes once empty.
    cleans(
        d.path(),
        &["--older", "240h30m", "-fuzzcachedir", "cache"],
        "removed 1 entry (6 B)",
    );
    assert_eq!(
        tree(&cache),
        [
            "foo-0000000000000000/",
            "foo-0000000000000000/FuzzB/",
            "foo-0000000000000000/FuzzB/0e0e000000000000",
        ]
    );
    // Nothing that old left.
    cleans(
        d.path(),
        &["-older", "1h", "-fuzzcachedir", "cache"],
        "nothing to remove",
    );
    assert_eq!(tree(&cache).len(), 3);
}

#[test]
fn older_with_a_library_and_a_target() {
    let d = tempdir();
    let cache = d.path().join("cache");
    let (_, foo) = fake_lib(d.path(), "libfoo.so");
    age_days(&entry(&cache, &foo, "FuzzA", "0d1d000000000000", b"o"), 10);
    entry(&cache, &foo, "FuzzA", "0e0e000000000000", b"n");
    age_days(&entry(&cache, &foo, "FuzzB", "0d1d000000000000", b"o"), 10);
    age_days(
        &entry(
            &cache,
            "bar-1111111111111111",
            "FuzzA",
            "0d1d000000000000",
            b"o",
        ),
        10,
    );
    run_in(
        d.path(),
        TOOL,
        &[
            "libfoo.so",
            "-target",
            "FuzzA",
            "-older",
            "1d",
            "-fuzzcachedir",
            "cache",
        ],
    )
    .expect(0);
    assert_eq!(
        tree(&cache),
        [
            "bar-1111111111111111/".to_string(),
            "bar-1111111111111111/FuzzA/".into(),
            "bar-1111111111111111/FuzzA/0d1d000000000000".into(),
            format!("{foo}/"),
            format!("{foo}/FuzzA/"),
            format!("{foo}/FuzzA/0e0e000000000000"),
            format!("{foo}/FuzzB/"),
            format!("{foo}/FuzzB/0d1d000000000000"),
        ]
    );
}

#[test]
fn dry_run_lists_everything_and_removes_nothing() {
    let d = tempdir();
    let cache = d.path().join("cache");
    entry_at(&cache, "foo-0000000000000000/FuzzA/1111111111111111", b"1");
    entry_at(&cache, "foo-0000000000000000/FuzzA/2222222222222222", b"22");
    entry_at(&cache, "bar-1111111111111111/bar/3333333333333333", b"333");
    let before = snapshot(d.path());
    let r = run_in(d.path(), TOOL, &["-n", "-fuzzcachedir", "cache"]).expect(0);
    assert_eq!(snapshot(d.path()), before, "-n removed something");
    let c = canon(&cache);
    assert_eq!(
        lines(&r),
        [
            "bar-1111111111111111/bar/3333333333333333",
            "bar-1111111111111111/bar",
            "bar-1111111111111111",
            "foo-0000000000000000/FuzzA/1111111111111111",
            "foo-0000000000000000/FuzzA/2222222222222222",
            "foo-0000000000000000/FuzzA",
            "foo-0000000000000000",
        ]
        .map(|p| c.join(p).display().to_string())
    );
    assert_eq!(
        summary(&r),
        format!(
            "fuzz-clean: would remove 3 entries (6 B) from {}",
            c.display()
        )
    );
    // What -n lists is what a real run removes.
    cleans(
        d.path(),
        &["-fuzzcachedir", "cache"],
        "removed 3 entries (6 B)",
    );
    assert_eq!(tree(&cache), Vec::<String>::new());
}

#[test]
fn symlinks_are_removed_as_links_never_followed() {
    use std::os::unix::fs::symlink;
    let d = tempdir();
    let cache = d.path().join("cache");
    let outside = d.path().join("outside");
    fs::create_dir_all(outside.join("FuzzA")).unwrap();
    fs::write(outside.join("keep.txt"), b"must survive").unwrap();
    fs::write(outside.join("FuzzA").join("keep2"), b"must survive").unwrap();
    let (_, foo) = fake_lib(d.path(), "libfoo.so");
    entry(&cache, &foo, "FuzzA", "1111111111111111", b"1");
    // A link to a directory as an entry, as a target and as a library.
    symlink(
        &outside,
        cache.join(&foo).join("FuzzA").join("11ec000000000000"),
    )
    .unwrap();
    symlink(&outside, cache.join(&foo).join("FuzzB")).unwrap();
    symlink(&outside, cache.join("bar-1111111111111111")).unwrap();
    let outside_before = snapshot(&outside);

    // -target FuzzA in every library: the library link is not entered.
    let r = run_in(
        d.path(),
        TOOL,
        &["-n", "-target", "FuzzA", "-fuzzcachedir", "cache"],
    )
    .expect(0);
    assert!(
        !r.out().contains("keep"),
        "listed something outside the cache: {}",
        r.out()
    );
    // -target FuzzB: the link is removed, not what it points to.
    run_in(
        d.path(),
        TOOL,
        &["libfoo.so", "-target", "FuzzB", "-fuzzcachedir", "cache"],
    )
    .expect(0);
    assert!(cache.join(&foo).join("FuzzB").symlink_metadata().is_err());
    assert_eq!(snapshot(&outside), outside_before);

    // The whole cache: the links go, what they point to stays.
    cleans(d.path(), &["-fuzzcachedir", "cache"], "removed 3 entries");
    assert_eq!(tree(&cache), Vec::<String>::new());
    assert_eq!(snapshot(&outside), outside_before);
    assert_eq!(fs::read(outside.join("keep.txt")).unwrap(), b"must survive");

    // -older looks at a link's own time and never walks through it.
    symlink(&outside, cache.join("lib-0000000000000000")).unwrap();
    age_days(&outside.join("keep.txt"), 100);
    run_in(d.path(), TOOL, &["-older", "1d", "-fuzzcachedir", "cache"]).expect(0);
    assert_eq!(fs::read(outside.join("keep.txt")).unwrap(), b"must survive");
}

#[test]
fn a_library_dir_that_is_a_link_is_not_entered() {
    use std::os::unix::fs::symlink;
    let d = tempdir();
    let cache = d.path().join("cache");
    let outside = d.path().join("outside");
    fs::create_dir_all(outside.join("FuzzA")).unwrap();
    fs::write(outside.join("FuzzA").join("keep"), b"must survive").unwrap();
    let (_, foo) = fake_lib(d.path(), "libfoo.so");
    fs::create_dir_all(&cache).unwrap();
    fuzz_core::store::cache::write_tag(&cache).unwrap();
    symlink(&outside, cache.join(&foo)).unwrap();
    cleans(
        d.path(),
        &["libfoo.so", "-target", "FuzzA", "-fuzzcachedir", "cache"],
        "nothing to remove",
    );
    assert!(outside.join("FuzzA").join("keep").exists());
    // Without -target, the library's "directory" is the link: it goes.
    run_in(d.path(), TOOL, &["libfoo.so", "-fuzzcachedir", "cache"]).expect(0);
    assert!(cache.join(&foo).symlink_metadata().is_err());
    assert!(outside.join("FuzzA").join("keep").exists());
}

#[test]
fn a_cache_root_that_is_a_link_is_resolved_once() {
    use std::os::unix::fs::symlink;
    let d = tempdir();
    let real = d.path().join("real-cache");
    entry_at(&real, "foo-0000000000000000/FuzzA/1111111111111111", b"1");
    symlink(&real, d.path().join("cache")).unwrap();
    let r = run_in(d.path(), TOOL, &["-fuzzcachedir", "cache"]).expect(0);
    assert_eq!(
        summary(&r),
        format!(
            "fuzz-clean: removed 1 entry (1 B) from {}",
            canon(&real).display()
        )
    );
    assert!(d
        .path()
        .join("cache")
        .symlink_metadata()
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(real.is_dir());
    assert_eq!(tree(&real), Vec::<String>::new());
}

/// Runs `c`, wants exit 2 with one line naming `needle`, nothing on stdout,
/// and nothing changed below `dir`.
#[track_caller]
fn refused(dir: &Path, c: Command, needle: &str) {
    let before = snapshot(dir);
    let r = run_command(c).expect(2);
    r.one_line_error(TOOL, needle);
    assert!(r.stdout.is_empty(), "stdout: {}", r.out());
    assert_eq!(snapshot(dir), before, "a refused run changed files");
}

/// A tree with something in the cache, in $HOME and beside them, so that a
/// refusal that removes anything shows.
fn populated() -> tempfile::TempDir {
    let d = tempdir();
    let home = d.path().join("home");
    entry(
        &home.join(".cache/fuzz"),
        "foo-0000000000000000",
        "FuzzA",
        "1111111111111111",
        b"1",
    );
    fs::write(home.join("precious"), b"do not remove").unwrap();
    entry(
        &d.path().join("cache"),
        "foo-0000000000000000",
        "FuzzA",
        "1111111111111111",
        b"1",
    );
    fs::write(d.path().join("libfoo.so"), b"lib").unwrap();
    d
}

#[test]
fn refuses_the_root_directory() {
    let d = populated();
    // -n: even a broken refusal could not remove anything.
    for root in ["/", "//", "/tmp/.."] {
        refused(
            d.path(),
            cmd(d.path(), TOOL, &["-n", "-fuzzcachedir", root]),
            "refusing to clean",
        );
        let r = run_command(cmd(d.path(), TOOL, &["-n", "-fuzzcachedir", root])).expect(2);
        r.one_line_error(TOOL, &format!("refusing to clean {root} (-fuzzcachedir)"));
    }
    let mut c = cmd(d.path(), TOOL, &["-n"]);
    c.env("FUZZCACHE", "/");
    refused(d.path(), c, "($FUZZCACHE)");
}

#[test]
fn refuses_home_and_what_holds_it() {
    use std::os::unix::fs::symlink;
    let d = populated();
    let home = d.path().join("home");
    let h = home.to_str().unwrap();
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", h]),
        &format!("refusing to clean {h}"),
    );
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", "home/"]),
        "is $HOME",
    );
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("FUZZCACHE", &home);
    refused(d.path(), c, "$HOME");
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("XDG_CACHE_HOME", d.path())
        .env("HOME", d.path().join("fuzz"));
    fs::create_dir_all(d.path().join("fuzz")).unwrap();
    refused(d.path(), c, "$XDG_CACHE_HOME");
    // Through a link, and a directory above $HOME.
    symlink(&home, d.path().join("home-link")).unwrap();
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", "home-link"]),
        "home-link",
    );
    let top = d.path().to_str().unwrap();
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", top]),
        "holds $HOME",
    );
    assert!(home.join("precious").exists());
}

#[test]
fn refuses_a_dangling_link_or_a_file_as_the_cache() {
    use std::os::unix::fs::symlink;
    let d = populated();
    symlink(d.path().join("nowhere"), d.path().join("dangling")).unwrap();
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", "dangling"]),
        "dangling",
    );
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("FUZZCACHE", d.path().join("dangling"));
    refused(d.path(), c, "dangling symbolic link");
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", "libfoo.so"]),
        "libfoo.so",
    );
    let r = run_command(cmd(d.path(), TOOL, &["-fuzzcachedir", "libfoo.so"])).expect(2);
    r.one_line_error(TOOL, "not a directory");
    symlink(d.path().join("libfoo.so"), d.path().join("file-link")).unwrap();
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", "file-link"]),
        "file-link",
    );
    refused(
        d.path(),
        cmd(d.path(), TOOL, &["-fuzzcachedir", ""]),
        "-fuzzcachedir",
    );
}

#[test]
fn refuses_bad_arguments_before_touching_anything() {
    let d = populated();
    let cases: &[(&[&str], &str)] = &[
        (
            &["libmissing.so", "-fuzzcachedir", "cache"],
            "libmissing.so",
        ),
        (
            &["cache", "-fuzzcachedir", "cache"],
            "cache: is a directory",
        ),
        (&["-older", "abc", "-fuzzcachedir", "cache"], "-older"),
        (&["-older", "abc", "-fuzzcachedir", "cache"], "abc"),
        (&["-older=-5d", "-fuzzcachedir", "cache"], "-older"),
        (&["-older", "10", "-fuzzcachedir", "cache"], "missing unit"),
        (&["-bogus", "-fuzzcachedir", "cache"], "-bogus"),
        (
            &["-target", "../cache", "-fuzzcachedir", "cache"],
            "-target",
        ),
        (&["-target", "..", "-fuzzcachedir", "cache"], "-target"),
        (&["-target", "", "-fuzzcachedir", "cache"], "-target"),
        (&["libfoo.so", "extra", "-fuzzcachedir", "cache"], "extra"),
        (&["-fuzzcachedir"], "-fuzzcachedir"),
        // A bad argument wins even when the cache does not exist.
        (
            &["libmissing.so", "-fuzzcachedir", "no/such"],
            "libmissing.so",
        ),
    ];
    for (args, needle) in cases {
        refused(d.path(), cmd(d.path(), TOOL, args), needle);
    }
}

#[test]
fn help_reads_go_style() {
    let d = tempdir();
    let r = run_in(d.path(), TOOL, &["-help"]).expect(0);
    let out = r.out();
    for flag in [
        "-older <DURATION>",
        "-target <NAME>",
        "-n",
        "-fuzzcachedir <DIR>",
        "30d",
    ] {
        assert!(out.contains(flag), "help lacks {flag}:\n{out}");
    }
    assert!(!out.contains("--older"), "{out}");
}

/// A project as a user has one: sources, a git repository, a seed corpus,
/// and the library directories a run with `FUZZCACHE=.` wrote beside them.
fn project(dir: &Path) {
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(dir.join("src/parse.c"), b"int parse(void) { return 0; }\n").unwrap();
    fs::write(dir.join("Makefile"), b"all:\n").unwrap();
    fs::create_dir_all(dir.join(".git/refs/heads")).unwrap();
    fs::write(dir.join(".git/HEAD"), b"ref: refs/heads/main\n").unwrap();
    let seeds = dir.join("testdata/fuzz/FuzzA");
    fs::create_dir_all(&seeds).unwrap();
    fs::write(
        seeds.join("0123456789abcdef"),
        b"go test fuzz v1\n[]byte(\"a\")\n",
    )
    .unwrap();
    let cached = dir.join("foo-0123456789abcdef/FuzzA");
    fs::create_dir_all(&cached).unwrap();
    fs::write(cached.join("fedcba9876543210"), b"go test fuzz v1\n").unwrap();
}

#[test]
fn a_project_is_never_cleaned_however_it_is_named() {
    let d = tempdir();
    let proj = d.path().join("project");
    project(&proj);
    let abs = proj.to_str().unwrap();
    // $HOME is elsewhere: cmd() puts it below the working directory.
    let home = d.path().join("home");
    let with_env = |dir: &Path, value: &str, args: &[&str]| {
        let mut c = cmd(dir, TOOL, args);
        c.env("FUZZCACHE", value).env("HOME", &home);
        c
    };
    // FUZZCACHE=. in the project, FUZZCACHE as an absolute path, and
    // -fuzzcachedir either way; with -n too, which must refuse as well.
    for dry in [false, true] {
        let n: &[&str] = if dry { &["-n"] } else { &[] };
        refused(d.path(), with_env(&proj, ".", n), "($FUZZCACHE)");
        refused(d.path(), with_env(d.path(), abs, n), abs);
        let mut args = n.to_vec();
        args.extend(["-fuzzcachedir", "."]);
        let mut c = cmd(&proj, TOOL, &args);
        c.env("HOME", &home);
        refused(d.path(), c, "refusing to clean . (-fuzzcachedir)");
        let mut args = n.to_vec();
        args.extend(["-fuzzcachedir", abs]);
        refused(d.path(), cmd(d.path(), TOOL, &args), ".git");
        // A selection does not make it a cache either.
        let mut args = n.to_vec();
        args.extend(["-target", "FuzzA", "-fuzzcachedir", abs]);
        refused(d.path(), cmd(d.path(), TOOL, &args), abs);
    }
    let r = run_command(with_env(&proj, ".", &[])).expect(2);
    r.one_line_error(TOOL, "it holds .git");

    // A tag does not make a repository a cache.
    fs::write(
        proj.join("CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    )
    .unwrap();
    refused(d.path(), with_env(&proj, ".", &[]), ".git");
    fs::remove_file(proj.join("CACHEDIR.TAG")).unwrap();

    // Without .git, its sources still say it is no cache.
    fs::remove_dir_all(proj.join(".git")).unwrap();
    let r = run_command(with_env(&proj, ".", &[])).expect(2);
    r.one_line_error(TOOL, "it has no CACHEDIR.TAG and holds Makefile");
    refused(
        d.path(),
        with_env(&proj, ".", &[]),
        "not laid out as the cache is",
    );
    assert!(proj.join("src/parse.c").is_file());
    assert!(proj.join("testdata/fuzz/FuzzA/0123456789abcdef").is_file());
}

/// A tree that looks like a system's `/usr` and another user's home.
fn fake_system(root: &Path) -> (PathBuf, PathBuf) {
    let usr = root.join("usr");
    for (path, bytes) in [
        ("bin/ls", &b"\x7fELF"[..]),
        ("lib/x86_64-linux-gnu/libc.so.6", b"\x7fELF"),
        ("share/doc/README", b"docs"),
    ] {
        let p = usr.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
    let other = root.join("home/other");
    entry(
        &other.join(".cache/fuzz"),
        "foo-0123456789abcdef",
        "FuzzA",
        "0123456789abcdef",
        b"x",
    );
    fs::write(other.join(".bashrc"), b"export PS1='$ '\n").unwrap();
    fs::create_dir_all(other.join("thesis")).unwrap();
    fs::write(other.join("thesis/chapter1.tex"), b"\\chapter{One}").unwrap();
    (usr, other)
}

#[test]
fn a_system_tree_or_another_home_is_never_cleaned_even_without_home() {
    let d = tempdir();
    let (usr, other) = fake_system(&d.path().join("fake-root"));
    for unset_home in [false, true] {
        for dir in [&usr, &other] {
            for n in [true, false] {
                let args: &[&str] = if n { &["-n"] } else { &[] };
                let mut c = cmd(d.path(), TOOL, args);
                c.env("FUZZCACHE", dir);
                if unset_home {
                    c.env_remove("HOME");
                }
                refused(d.path(), c, &dir.display().to_string());
            }
            let mut c = cmd(d.path(), TOOL, &["-fuzzcachedir", dir.to_str().unwrap()]);
            if unset_home {
                c.env_remove("HOME");
            }
            refused(d.path(), c, "no CACHEDIR.TAG");
        }
    }
    // The other user's real cache, tagged, is a cache: with HOME unset it
    // is found through FUZZCACHE and cleaned, and nothing beside it goes.
    let theirs = other.join(".cache/fuzz");
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("FUZZCACHE", &theirs).env_remove("HOME");
    let r = run_command(c).expect(0);
    assert!(
        summary(&r).contains("removed 1 entry (1 B)"),
        "{}",
        r.stderr
    );
    assert_eq!(tree(&theirs), Vec::<String>::new());
    assert!(other.join("thesis/chapter1.tex").is_file());
    assert!(usr.join("bin/ls").is_file());
}

#[test]
fn strays_in_a_real_cache_stay_with_a_warning() {
    use std::os::unix::fs::symlink;
    let d = tempdir();
    let cache = d.path().join("cache");
    let lib = "foo-0123456789abcdef";
    entry(&cache, lib, "FuzzA", "0123456789abcdef", b"one");
    entry(&cache, lib, "FuzzB", "fedcba9876543210", b"two");
    let outside = d.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("keep"), b"must survive").unwrap();
    let strays = [
        "notes.txt".to_string(),
        format!("{lib}/.hidden"),
        format!("{lib}/FuzzA/keep.me"),
        format!("{lib}/FuzzA/0000000000000000"),
        "to-outside".into(),
        format!("{lib}/FuzzB/to-outside"),
    ];
    fs::write(cache.join(&strays[0]), b"mine").unwrap();
    fs::write(cache.join(&strays[1]), b"mine").unwrap();
    fs::write(cache.join(&strays[2]), b"mine").unwrap();
    // A directory where an entry belongs, with something in it.
    fs::create_dir_all(cache.join(&strays[3])).unwrap();
    fs::write(cache.join(&strays[3]).join("x"), b"mine").unwrap();
    symlink(&outside, cache.join(&strays[4])).unwrap();
    symlink(&outside, cache.join(&strays[5])).unwrap();
    let outside_before = snapshot(&outside);

    let r = run_in(d.path(), TOOL, &["-fuzzcachedir", "cache"]).expect(0);
    let c = canon(&cache);
    for stray in &strays {
        let shown = c.join(stray).display().to_string();
        assert!(
            r.stderr
                .lines()
                .any(|l| l.starts_with("fuzz-clean: warning: left ") && l.contains(&shown)),
            "no warning names {shown}:\n{}",
            r.stderr
        );
        assert!(
            cache.join(stray).symlink_metadata().is_ok(),
            "{stray} was removed"
        );
    }
    assert!(r.stderr.contains("removed 2 entries (6 B)"), "{}", r.stderr);
    assert!(!cache.join(lib).join("FuzzA/0123456789abcdef").exists());
    assert!(!cache.join(lib).join("FuzzB/fedcba9876543210").exists());
    assert_eq!(snapshot(&outside), outside_before);
    assert_eq!(fs::read(cache.join(&strays[0])).unwrap(), b"mine");
}

#[test]
fn an_untagged_cache_laid_out_as_ours_is_recognised_tagged_and_cleaned() {
    let d = tempdir();
    let cache = d.path().join("old-cache");
    // As the previous version left it: the layout, an unfinished write,
    // no tag.
    for (lib, target, name) in [
        ("foo-0123456789abcdef", "FuzzA", "0123456789abcdef"),
        ("foo-0123456789abcdef", "FuzzA", ".tmp-a1B2c3"),
        ("png_read-fedcba9876543210", "png_read", &"e".repeat(64)),
    ] {
        let dir = cache.join(lib).join(target);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(name), b"x").unwrap();
    }
    assert!(!fuzz_core::store::cache::is_tagged(&cache));
    let before = snapshot(d.path());
    let r = run_in(d.path(), TOOL, &["-n", "-fuzzcachedir", "old-cache"]).expect(0);
    assert_eq!(lines(&r).len(), 3 + 2 + 2, "{}", r.out());
    assert_eq!(snapshot(d.path()), before, "-n wrote or removed something");

    cleans(
        d.path(),
        &["-fuzzcachedir", "old-cache"],
        "removed 3 entries (3 B)",
    );
    assert_eq!(tree(&cache), Vec::<String>::new());
    assert!(
        fuzz_core::store::cache::is_tagged(&cache),
        "a recognised cache is tagged"
    );
    // Tagged now: a stray that turns up later is left with a warning,
    // where an untagged root holding it would have been refused.
    fs::write(cache.join("notes.txt"), b"mine").unwrap();
    let r = run_in(d.path(), TOOL, &["-fuzzcachedir", "old-cache"]).expect(0);
    assert!(r.stderr.contains("warning: left "), "{}", r.stderr);
    assert!(cache.join("notes.txt").is_file());
}

#[test]
fn older_is_a_positive_age_and_entries_from_the_future_are_new() {
    let d = tempdir();
    let cache = d.path().join("cache");
    let future = entry_at(&cache, "foo-0123456789abcdef/FuzzA/0123456789abcdef", b"f");
    let old = entry_at(&cache, "foo-0123456789abcdef/FuzzA/fedcba9876543210", b"o");
    fs::File::options()
        .write(true)
        .open(&future)
        .unwrap()
        .set_modified(SystemTime::now() + Duration::from_secs(86400 * 365))
        .unwrap();
    age_days(&old, 3);
    for zero in ["0", "0s", "0h0m", "0d"] {
        refused(
            d.path(),
            cmd(d.path(), TOOL, &["-older", zero, "-fuzzcachedir", "cache"]),
            "-older",
        );
    }
    cleans(
        d.path(),
        &["-older", "1s", "-fuzzcachedir", "cache"],
        "removed 1 entry (1 B)",
    );
    assert!(future.is_file(), "an entry dated in the future was removed");
    assert!(!old.exists());
}

#[test]
fn a_cache_fuzz_run_made_is_tagged_found_alike_and_cleaned_whole() {
    let d = tempdir();
    let lib = example_lib("librust_typed_fixed.so");
    let fuzz = |env: &[(&str, &str)]| {
        let mut c = cmd(
            d.path(),
            "fuzz-run",
            &[
                "-fuzz",
                "^FuzzRecord$",
                "-parallel",
                "1",
                "-seed",
                "1",
                "-fuzztime",
                "20000x",
                &lib,
            ],
        );
        for (k, v) in env {
            c.env(k, v);
        }
        run_command(c).expect(0)
    };
    // A relative FUZZCACHE, resolved against the working directory by both
    // tools.
    fuzz(&[("FUZZCACHE", "rel/cache")]);
    let cache = d.path().join("rel/cache");
    assert!(
        fuzz_core::store::cache::is_tagged(&cache),
        "fuzz-run did not tag the cache it created"
    );
    let made = tree(&cache);
    let entries = made.iter().filter(|p| !p.ends_with('/')).count();
    assert!(entries > 2, "{made:?}");
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("FUZZCACHE", "rel/cache");
    let r = run_command(c).expect(0);
    assert!(
        summary(&r).contains(&format!("removed {entries} entries")),
        "{}",
        r.stderr
    );
    assert_eq!(tree(&cache), Vec::<String>::new());

    // A relative XDG_CACHE_HOME is ignored, by both: $HOME decides.
    fuzz(&[("XDG_CACHE_HOME", "xdg")]);
    assert!(!d.path().join("xdg").exists());
    let home_cache = d.path().join("home/.cache/fuzz");
    assert!(fuzz_core::store::cache::is_tagged(&home_cache));
    let mut c = cmd(d.path(), TOOL, &[]);
    c.env("XDG_CACHE_HOME", "xdg");
    let r = run_command(c).expect(0);
    assert!(summary(&r).contains("removed"), "{}", r.stderr);
    assert_eq!(tree(&home_cache), Vec::<String>::new());
}
