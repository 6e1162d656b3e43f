//! What `fuzz-worker serve` is given: one definition for the client that
//! writes the worker's command line ([`ServeArgs::to_args`]) and the worker
//! that parses it (with the `clap` feature, which fuzz-worker turns on).

use std::ffi::OsString;
use std::path::PathBuf;

/// The descriptors a served worker reads requests from and answers on:
/// the client moves its pipe ends there between fork and exec.
pub const FD_IN: i32 = 3;
pub const FD_OUT: i32 = 4;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ServeArgs {
    /// The target library.
    #[cfg_attr(feature = "clap", arg(value_name = "LIB.so"))]
    pub lib: PathBuf,
    /// The target to fuzz.
    #[cfg_attr(feature = "clap", arg(long = "target", value_name = "NAME"))]
    pub target: Option<String>,
    /// The shared memory file the coordinator created.
    #[cfg_attr(feature = "clap", arg(long = "shm", value_name = "PATH"))]
    pub shm: PathBuf,
    /// A dictionary file (AFL/libFuzzer format).
    #[cfg_attr(feature = "clap", arg(long = "dict", value_name = "FILE"))]
    pub dict: Option<PathBuf>,
    /// File descriptor requests arrive on.
    #[cfg_attr(feature = "clap", arg(long = "fd_in", value_name = "FD", default_value_t = FD_IN))]
    pub fd_in: i32,
    /// File descriptor answers go to.
    #[cfg_attr(feature = "clap", arg(long = "fd_out", value_name = "FD", default_value_t = FD_OUT))]
    pub fd_out: i32,
    /// A build of the same target with comparison tracing (trace-cmp),
    /// run now and then for its comparison operands only.
    #[cfg_attr(feature = "clap", arg(long = "cmp-lib", value_name = "LIB.so"))]
    pub cmp_lib: Option<PathBuf>,
    /// Sanitizer runtime to preload (default: asked from clang-19).
    #[cfg_attr(feature = "clap", arg(long = "sanitizer-runtime", value_name = "PATH"))]
    pub sanitizer_runtime: Option<PathBuf>,
    /// Skip the warm-up run of the empty input (it crashed before).
    #[cfg_attr(feature = "clap", arg(long = "no-warm-up"))]
    pub no_warm_up: bool,
    /// Count each comparison site's outcomes (equal, below, above) as
    /// coverage features of their own (fuzz-run -cmp_outcomes).
    #[cfg_attr(feature = "clap", arg(long = "cmp-outcomes"))]
    pub cmp_outcomes: bool,
    /// First list the library's targets (one `targets` answer), then wait
    /// for the arguments to serve with (one line of JSON, these fields),
    /// which name the target: a spare worker (`spare::Spare`).
    #[cfg_attr(feature = "clap", arg(long = "list"))]
    #[serde(default)]
    pub list: bool,
}

impl ServeArgs {
    /// A worker of `lib`'s `target` with nothing else asked; the client
    /// fills in `shm` when it starts one.
    pub fn new(lib: PathBuf, target: Option<String>) -> ServeArgs {
        ServeArgs {
            lib,
            target,
            shm: PathBuf::new(),
            dict: None,
            fd_in: FD_IN,
            fd_out: FD_OUT,
            cmp_lib: None,
            sanitizer_runtime: None,
            no_warm_up: false,
            cmp_outcomes: false,
            list: false,
        }
    }

    /// The command line after `fuzz-worker`, `serve` first. Values are
    /// joined to their flags (`--target=-x`), so that one that begins with
    /// a dash is still a value; the library comes last, after `--`.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec!["serve".into()];
        let mut flag = |name: &str, value: Option<OsString>| {
            let mut arg = OsString::from(format!("--{name}"));
            if let Some(v) = value {
                arg.push("=");
                arg.push(v);
            }
            a.push(arg);
        };
        if let Some(t) = &self.target {
            flag("target", Some(t.into()));
        }
        flag("shm", Some(self.shm.clone().into()));
        flag("fd_in", Some(self.fd_in.to_string().into()));
        flag("fd_out", Some(self.fd_out.to_string().into()));
        for (name, path) in [
            ("dict", &self.dict),
            ("cmp-lib", &self.cmp_lib),
            ("sanitizer-runtime", &self.sanitizer_runtime),
        ] {
            if let Some(p) = path {
                flag(name, Some(p.clone().into()));
            }
        }
        if self.no_warm_up {
            flag("no-warm-up", None);
        }
        if self.cmp_outcomes {
            flag("cmp-outcomes", None);
        }
        if self.list {
            flag("list", None);
        }
        a.extend(["--".into(), self.lib.clone().into()]);
        a
    }
}
