//! Loading a target library and finding its targets.
//!
//! The ELF file is inspected first (is it a shared object, for this
//! machine, does it export a target, does it need a sanitizer runtime), so
//! that a library that is not a target is refused with a reason before
//! anything runs. Then it is opened with `RTLD_NOW`: a missing symbol is a
//! load error that names it, never a crash found mid-run.

use fuzz_core::worker::protocol::{GoStatus, GoTest, TargetDesc, TargetKind};
use fuzz_core::ArgType;
use object::{Object, ObjectSymbol, SymbolKind};
use std::ffi::{c_char, c_int, CString};
use std::path::{Path, PathBuf};

/// A library file's bytes, for parsing its ELF: mapped read-only, so a
/// parse touches only the pages it reads (a Rust library is often tens of
/// MB, and a worker starting up parses it several times: read whole, each
/// parse cost about 10 ms); read whole where the file cannot be mapped (an
/// empty file, a file system without mmap). [`inspect`] refuses anything
/// but a regular file before this opens it.
pub enum FileBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Read(v) => v,
        }
    }
}

/// The bytes of the library at `path` (see [`FileBytes`]).
pub fn file_bytes(path: &Path) -> std::io::Result<FileBytes> {
    let file = std::fs::File::open(path)?;
    // SAFETY: the map is read-only and lives while the caller parses. The
    // file is the library this process loads, which dlopen maps too: a
    // library changed in place under a running worker breaks that load
    // as it breaks this parse.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(m) => Ok(FileBytes::Mapped(m)),
        Err(_) => {
            // From the file already open: the path opened again could be
            // another file by now.
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut &file, &mut bytes)?;
            Ok(FileBytes::Read(bytes))
        }
    }
}

/// The prototype shared by libFuzzer entries and typed targets.
pub type TargetFn = unsafe extern "C" fn(*const u8, usize) -> c_int;
type InitFn = unsafe extern "C" fn(*mut c_int, *mut *mut *mut c_char) -> c_int;

/// One target of a library: what the protocol says of it, and the symbol
/// to call; for a Go library's fuzz test, what go test's set-up said of it
/// (its f.Add values, or why it cannot run).
#[derive(Clone, Debug)]
pub struct Target {
    pub desc: TargetDesc,
    pub symbol: String,
    pub go: Option<GoTest>,
}

impl std::ops::Deref for Target {
    type Target = TargetDesc;
    fn deref(&self) -> &TargetDesc {
        &self.desc
    }
}

impl AsRef<TargetDesc> for Target {
    fn as_ref(&self) -> &TargetDesc {
        &self.desc
    }
}

/// What the ELF file says, before it is loaded.
pub struct Inspection {
    /// Exported function and data symbols.
    functions: Vec<String>,
    data: Vec<String>,
    /// True when it uses gcc's `trace-pc` (or indirect-call tracing), whose
    /// counters live in the worker's hashed PC map.
    pub uses_pc_map: bool,
    /// True when it calls the trace-cmp callbacks (`list -json` says so;
    /// fuzz-run's `-cmp_lib` needs them).
    pub traces_cmp: bool,
    /// True when it calls any SanitizerCoverage function (counters, pc
    /// table, trace-pc, trace-cmp): `list -json` says so, and fuzz-run
    /// refuses to fuzz a library without.
    pub instrumented: bool,
    /// True for a Go package's fuzz tests built by fuzz-build (golib.rs).
    pub go: bool,
}

/// A library and its targets: loaded, or for a Go library, described
/// (golib.rs) and loaded only by [`Library::load_target`].
pub struct Library {
    pub path: PathBuf,
    pub targets: Vec<Target>,
    /// Whether coverage must include the hashed PC map (see `Inspection`).
    pub uses_pc_map: bool,
    /// Whether it calls the trace-cmp callbacks (see `Inspection`).
    pub traces_cmp: bool,
    /// Whether it has any SanitizerCoverage instrumentation.
    pub instrumented: bool,
    handle: Handle,
}

enum Handle {
    Native(libloading::os::unix::Library),
    /// A Go library (golib.rs): loaded by `load_target`, in the process
    /// that runs its target, once that forks no more.
    Go,
}

/// `^Fuzz[A-Z0-9_][A-Za-z0-9_]*$`: the rule the `fuzz_target!` macro
/// checks at compile time, defined once in fuzz-target.
fn is_typed_name(name: &str) -> bool {
    fuzz_target::target::valid_target_name(name)
}

/// Reads the ELF file and refuses what cannot be a target library.
pub fn inspect(path: &Path) -> Result<Inspection, String> {
    let meta = std::fs::metadata(path).map_err(|e| fuzz_core::error::describe(&e))?;
    if meta.is_dir() {
        return Err("is a directory, not a library".into());
    }
    // Opening a FIFO waits for a writer, and a device can be endless:
    // only a regular file can be a library (dlopen maps it).
    if !meta.is_file() {
        let kind = fuzz_core::store::confined::kind(std::os::unix::fs::MetadataExt::mode(&meta));
        return Err(format!(
            "a {kind}, not a library (want a shared object file)"
        ));
    }
    let data = file_bytes(path).map_err(|e| fuzz_core::error::describe(&e))?;
    if !data.starts_with(b"\x7fELF") {
        return Err("not an ELF file (want a shared object built with -shared)".into());
    }
    let file = object::File::parse(&*data).map_err(|e| format!("unreadable ELF file: {e}"))?;
    let want = if cfg!(target_arch = "x86_64") {
        object::Architecture::X86_64
    } else if cfg!(target_arch = "aarch64") {
        object::Architecture::Aarch64
    } else {
        file.architecture()
    };
    if file.architecture() != want {
        return Err(format!(
            "built for {:?}, but this machine runs {:?}",
            file.architecture(),
            want
        ));
    }
    if file.kind() != object::ObjectKind::Dynamic {
        return Err(format!(
            "not a shared object ({:?}); build it with -fPIC -shared",
            file.kind()
        ));
    }
    let mut functions = Vec::new();
    let mut data_syms = Vec::new();
    let mut go = false;
    let mut uses_pc_map = false;
    let mut traces_cmp = false;
    let mut instrumented = false;
    for sym in file.dynamic_symbols() {
        let Ok(name) = sym.name() else { continue };
        if sym.is_undefined() {
            instrumented |= name.starts_with("__sanitizer_cov_");
            match name {
                "__sanitizer_cov_trace_pc" | "__sanitizer_cov_trace_pc_indir" => uses_pc_map = true,
                n if n.starts_with("__sanitizer_cov_trace_cmp")
                    || n.starts_with("__sanitizer_cov_trace_const_cmp") =>
                {
                    traces_cmp = true
                }
                _ => {}
            }
            continue;
        }
        if !sym.is_global() {
            continue;
        }
        match sym.kind() {
            SymbolKind::Text => {
                go |= name == crate::golib::DESCRIBE;
                functions.push(name.to_string())
            }
            SymbolKind::Data | SymbolKind::Unknown => data_syms.push(name.to_string()),
            _ => {}
        }
    }
    Ok(Inspection {
        functions,
        data: data_syms,
        uses_pc_map,
        traces_cmp,
        instrumented,
        go,
    })
}

/// Dictionary words read from the library's x86-64 machine code: none for
/// other architectures, or when the file cannot be read again.
#[derive(Default)]
pub struct CodeConstants {
    /// Constants of comparisons no callback shows
    /// (`fuzz_core::search::codewords`).
    pub words: Vec<Vec<u8>>,
    /// String constants handed over with their length
    /// (`fuzz_core::search::codestrings`).
    pub strings: Vec<Vec<u8>>,
}

/// The library's [`CodeConstants`].
pub fn code_constants(path: &Path) -> CodeConstants {
    use object::{ObjectSection, SectionKind};
    let mut out = CodeConstants::default();
    let Ok(data) = file_bytes(path) else {
        return out;
    };
    let Ok(file) = object::File::parse(&*data) else {
        return out;
    };
    if file.architecture() != object::Architecture::X86_64 {
        return out;
    }
    let rodata: fuzz_core::image::Sections = file
        .sections()
        .filter(|s| {
            matches!(
                s.kind(),
                SectionKind::ReadOnlyData | SectionKind::ReadOnlyString
            )
        })
        .filter_map(|s| Some((s.address(), s.data().ok()?)))
        .collect();
    let read = |addr: u64, len: usize| rodata.bytes(addr, len);
    for section in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let code = section.data().unwrap_or_default();
        for w in fuzz_core::search::codewords::words(code) {
            if !out.words.contains(&w) {
                out.words.push(w);
            }
        }
        for w in fuzz_core::search::codestrings::strings(code, section.address(), read) {
            if !out.strings.contains(&w) {
                out.strings.push(w);
            }
        }
    }
    out
}

impl Inspection {
    /// The targets the symbols promise (typed targets' signatures are read
    /// once the library is loaded). A libFuzzer entry is named after the
    /// library's file, which must then be UTF-8
    /// ([`fuzz_core::store::cache::target_name`]).
    fn target_symbols(&self, path: &Path) -> Result<Vec<(String, TargetKind, String)>, String> {
        let mut out = Vec::new();
        if self.functions.iter().any(|f| f == "LLVMFuzzerTestOneInput") {
            out.push((
                fuzz_core::store::cache::target_name(path).map_err(|e| e.to_string())?,
                TargetKind::LibFuzzer,
                "LLVMFuzzerTestOneInput".to_string(),
            ));
        }
        let mut typed: Vec<&String> = self.functions.iter().filter(|f| is_typed_name(f)).collect();
        typed.sort();
        typed.dedup();
        for f in typed {
            out.push((f.clone(), TargetKind::Typed, f.clone()));
        }
        Ok(out)
    }

    fn has_data(&self, name: &str) -> bool {
        self.data.iter().any(|d| d == name)
    }
}

impl Library {
    /// Inspects and opens a library. Errors are one line, naming the reason
    /// (and the missing symbol, for a load error). A Go library's fuzz
    /// tests are described instead (only `only`, when given), each in a
    /// child process (golib.rs).
    pub fn open(path: &Path, only: Option<&str>) -> Result<Library, String> {
        let info = inspect(path)?;
        if info.go {
            return Library::open_go(path, only);
        }
        let promised = info.target_symbols(path)?;
        if promised.is_empty() {
            return Err(
                "no fuzz targets: it exports neither LLVMFuzzerTestOneInput nor Fuzz<Name> functions"
                    .into(),
            );
        }
        let abs = std::fs::canonicalize(path).map_err(|e| fuzz_core::error::describe(&e))?;
        // SAFETY: loading runs the library's constructors; that is what a
        // target library is for. RTLD_NOW makes a missing symbol an error
        // here rather than a crash later.
        let lib = unsafe {
            libloading::os::unix::Library::open(
                Some(&abs),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
            )
        }
        .map_err(|e| load_error(&e.to_string(), &abs))?;
        register_modules();
        let mut targets = Vec::new();
        for (name, kind, symbol) in promised {
            let args = match kind {
                TargetKind::LibFuzzer => vec![ArgType::Bytes],
                TargetKind::Typed => {
                    let args_sym = format!("{symbol}_args");
                    if info.has_data(&args_sym) {
                        read_signature(&lib, &args_sym)?
                    } else {
                        vec![ArgType::Bytes]
                    }
                }
            };
            targets.push(Target {
                desc: TargetDesc { name, kind, args },
                symbol,
                go: None,
            });
        }
        Ok(Library {
            path: abs,
            targets,
            uses_pc_map: info.uses_pc_map,
            traces_cmp: info.traces_cmp,
            instrumented: info.instrumented,
            handle: Handle::Native(lib),
        })
    }

    /// A Go library: its fuzz tests as go test's set-up describes them.
    fn open_go(path: &Path, only: Option<&str>) -> Result<Library, String> {
        let abs = std::fs::canonicalize(path).map_err(|e| fuzz_core::error::describe(&e))?;
        let all = crate::golib::describe(&abs, only)?;
        let counters = all.iter().map(|d| d.counters).max().unwrap_or(0);
        let targets = all
            .into_iter()
            .map(|d| Target {
                symbol: d.name.clone(),
                desc: TargetDesc {
                    name: d.name,
                    kind: TargetKind::Typed,
                    args: d.args,
                },
                go: Some(d.test),
            })
            .collect();
        Ok(Library {
            path: abs,
            targets,
            uses_pc_map: false,
            traces_cmp: true,
            instrumented: counters > 0,
            handle: Handle::Go,
        })
    }

    /// Makes `target` ready to run in this process: for a Go library,
    /// loads it and sets the fuzz test up as a go test worker does (the
    /// crash handlers must be installed first, and this process must fork
    /// no more); nothing for other libraries, loaded already.
    pub fn load_target(&self, target: &Target) -> Result<(), String> {
        match (&self.handle, &target.go) {
            (Handle::Native(_), _) => Ok(()),
            (Handle::Go, Some(test)) if test.status != GoStatus::Ok => Err(format!(
                "fuzz test {} cannot run: {}",
                target.name,
                test.why()
            )),
            (Handle::Go, _) => crate::golib::load(&self.path, &target.name, &target.args),
        }
    }

    /// True for a Go library (see golib.rs).
    pub fn is_go(&self) -> bool {
        matches!(self.handle, Handle::Go)
    }

    /// The target called `name`, or the only one when `name` is `None`.
    pub fn target(&self, name: Option<&str>) -> Result<&Target, String> {
        match name {
            Some(n) => self.targets.iter().find(|t| t.name == n).ok_or_else(|| {
                format!("no target {n:?} (the library has: {})", self.target_names())
            }),
            None if self.targets.len() == 1 => Ok(&self.targets[0]),
            None => Err(format!(
                "the library has several targets ({}): pick one with -target NAME",
                self.target_names()
            )),
        }
    }

    /// This library's build of `other`, a target of another library: its
    /// libFuzzer entry for a libFuzzer target (whatever the file names),
    /// else the typed target of the same name and argument types.
    pub fn same_target(&self, other: &Target) -> Result<&Target, String> {
        fuzz_core::worker::protocol::build_of(&self.targets, other)
    }

    fn target_names(&self) -> String {
        let names: Vec<&str> = self.targets.iter().map(|t| t.name.as_str()).collect();
        names.join(", ")
    }

    /// The function of a target.
    pub fn function(&self, target: &Target) -> TargetFn {
        let Handle::Native(lib) = &self.handle else {
            return crate::golib::TARGET;
        };
        // SAFETY: the symbol was found as an exported function of this
        // library, with the prototype ARCHITECTURE.md requires of targets.
        unsafe {
            *lib.get::<TargetFn>(target.symbol.as_bytes())
                .expect("target symbol present at inspection")
        }
    }

    /// An optional exported function, by symbol name: `None` when the
    /// library does not define it (custom mutators, `custom.rs`).
    ///
    /// # Safety
    /// `T` must be the function pointer type of the symbol's prototype.
    pub unsafe fn optional_function<T: Copy>(&self, symbol: &str) -> Option<T> {
        let Handle::Native(lib) = &self.handle else {
            return None;
        };
        // SAFETY: the caller names the prototype; the pointer stays valid
        // while the library is loaded.
        unsafe { lib.get::<T>(symbol.as_bytes()).ok().map(|f| *f) }
    }

    /// Runs `LLVMFuzzerInitialize` if the library has one.
    pub fn initialize(&self) {
        let Handle::Native(lib) = &self.handle else {
            return;
        };
        // SAFETY: the optional libFuzzer initialiser, given an argv that
        // lives as long as the process.
        unsafe {
            if let Ok(init) = lib.get::<InitFn>(b"LLVMFuzzerInitialize") {
                let arg0 = CString::new(self.path.as_os_str().as_encoded_bytes())
                    .unwrap_or_default()
                    .into_raw();
                let argv: &'static mut [*mut c_char; 2] =
                    Box::leak(Box::new([arg0, std::ptr::null_mut()]));
                let argv_ptr: &'static mut *mut *mut c_char =
                    Box::leak(Box::new(argv.as_mut_ptr()));
                let mut argc: c_int = 1;
                init(&mut argc, argv_ptr);
            }
        }
    }
}

fn read_signature(lib: &libloading::os::unix::Library, sym: &str) -> Result<Vec<ArgType>, String> {
    // SAFETY: `FuzzName_args` is documented as a NUL-terminated string;
    // we read at most 4 KiB of it.
    let text = unsafe {
        let p = lib
            .get::<*const c_char>(sym.as_bytes())
            .map_err(|e| e.to_string())?;
        let start = p.into_raw() as *const u8;
        let bytes = std::slice::from_raw_parts(start, 4096);
        let end = bytes
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("{sym} is not a NUL-terminated string"))?;
        String::from_utf8_lossy(&bytes[..end]).into_owned()
    };
    ArgType::parse_list(&text).map_err(|e| format!("{sym} = {text:?}: {e}"))
}

fn load_error(msg: &str, path: &Path) -> String {
    // dlerror says "<path>: undefined symbol: foo"; keep the reason.
    let shown = path.display().to_string();
    let reason = msg
        .strip_prefix(&shown)
        .map(|r| r.trim_start_matches(':').trim())
        .unwrap_or(msg);
    format!("cannot load: {reason}")
}

/// Registers every loaded module's address range for gcc `trace-pc`
/// hashing, so PCs are hashed relative to their module's base.
fn register_modules() {
    for object in crate::loaded::objects() {
        if object.is_executable() {
            continue;
        }
        if let Some((lo, hi)) = object.span().filter(|(lo, hi)| lo < hi) {
            crate::sancov::add_pc_module(lo, hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_target_names() {
        for ok in ["FuzzParse", "Fuzz_x", "Fuzz9", "FuzzA_b_C"] {
            assert!(is_typed_name(ok), "{ok}");
        }
        for no in [
            "Fuzz",
            "Fuzzer",
            "FuzzParse_args!",
            "fuzzParse",
            "LLVMFuzzerTestOneInput",
        ] {
            assert!(!is_typed_name(no), "{no}");
        }
    }
}
