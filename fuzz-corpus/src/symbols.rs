//! Naming the functions of a library for `fuzz-corpus cover`: module-
//! relative addresses to function names (the ELF symbol tables, `.symtab`
//! when the library is not stripped, else the exported symbols) and, when
//! the library carries DWARF debug information (`-g`), to source file and
//! line. Names are demangled (Rust's legacy and v0 schemes, C++'s Itanium
//! ABI); a function no symbol covers is named by its address. Nothing here
//! is required of a library: without debug information there are no
//! locations, without symbols only addresses. The library is read and
//! its debug information indexed once (`with_lookup`); the same look-up
//! serves the line table's rows to `source_lines.rs`.

use addr2line::gimli;
use fuzz_core::image::Sections;
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
use std::borrow::Cow;
use std::path::Path;

/// What is known of the function at one address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The demangled name, or `0x…` (the address) when nothing names it.
    pub name: String,
    /// Source file and line of the function's entry, from DWARF.
    pub file: Option<String>,
    pub line: Option<u32>,
}

/// A function symbol of the ELF file.
struct FnSym<'a> {
    addr: u64,
    size: u64,
    name: &'a str,
    global: bool,
}

/// A library's symbols and debug information, opened once for every
/// look-up `cover` makes: names here, source lines in `source_lines.rs`.
pub struct Lookup<'d> {
    syms: Vec<FnSym<'d>>,
    ctx: Option<Context<'d>>,
    /// The executable sections' addresses and bytes.
    code: Sections<'d>,
    /// The read-only data sections' (where jump tables are).
    rodata: Sections<'d>,
    /// Whether the code is x86-64, the one machine `machine_flow.rs` reads.
    x86_64: bool,
}

/// Opens the library at `path` and hands its look-up to `f`. An
/// unreadable file is an error; missing symbols or debug information are
/// not.
pub fn with_lookup<T>(path: &Path, f: impl FnOnce(&Lookup) -> T) -> Result<T, String> {
    let data = std::fs::read(path).map_err(|e| fuzz_core::error::describe(&e))?;
    let file = object::File::parse(&*data).map_err(|e| format!("unreadable ELF file: {e}"))?;
    let mut syms: Vec<FnSym> = file
        .symbols()
        .chain(file.dynamic_symbols())
        .filter(|s| s.kind() == SymbolKind::Text && !s.is_undefined() && s.address() != 0)
        .filter_map(|s| {
            Some(FnSym {
                addr: s.address(),
                size: s.size(),
                name: s.name().ok().filter(|n| !n.is_empty())?,
                global: s.is_global(),
            })
        })
        .collect();
    // At one address, the global name first (an alias's exported name).
    syms.sort_by(|a, b| a.addr.cmp(&b.addr).then(b.global.cmp(&a.global)));
    let sections = dwarf_sections(&file);
    let endian = if file.is_little_endian() {
        gimli::RunTimeEndian::Little
    } else {
        gimli::RunTimeEndian::Big
    };
    let ctx = sections.as_ref().and_then(|s| {
        addr2line::Context::from_dwarf(s.borrow(|d| gimli::EndianSlice::new(d, endian))).ok()
    });
    let sections = |kind: object::SectionKind| {
        file.sections()
            .filter(|s| s.kind() == kind)
            .filter_map(|s| Some((s.address(), s.data().ok()?)))
            .collect()
    };
    let code = sections(object::SectionKind::Text);
    let rodata = sections(object::SectionKind::ReadOnlyData);
    let x86_64 = file.architecture() == object::Architecture::X86_64;
    Ok(f(&Lookup {
        syms,
        ctx,
        code,
        rodata,
        x86_64,
    }))
}

impl Lookup<'_> {
    /// Names the function whose entry is at `off` (a module-relative
    /// address).
    pub fn symbol(&self, off: u64) -> Symbol {
        let (dwarf_name, file, line) = match &self.ctx {
            Some(ctx) => locate(ctx, off),
            None => (None, None, None),
        };
        let name = lookup(&self.syms, off)
            .map(|s| demangle(s.name))
            .or(dwarf_name)
            .unwrap_or_else(|| format!("0x{off:x}"));
        Symbol { name, file, line }
    }

    /// The end of the function whose entry is at `off`, from its symbol's
    /// size; `None` when no sized symbol starts there.
    pub fn function_end(&self, off: u64) -> Option<u64> {
        let s = lookup(&self.syms, off).filter(|s| s.addr == off && s.size > 0)?;
        off.checked_add(s.size)
    }

    /// The x86-64 machine code at `lo..hi`; `None` on another machine or
    /// when no executable section holds all of it.
    pub fn x86_64_code(&self, lo: u64, hi: u64) -> Option<&[u8]> {
        if !self.x86_64 || hi <= lo {
            return None;
        }
        self.code.bytes(lo, usize::try_from(hi - lo).ok()?)
    }

    /// The 32-bit little-endian word at `at` in read-only data.
    pub fn rodata_i32(&self, at: u64) -> Option<i32> {
        let word = self.rodata.bytes(at, 4)?;
        Some(i32::from_le_bytes(word.try_into().ok()?))
    }

    /// Whether the library has DWARF debug information.
    pub fn has_lines(&self) -> bool {
        self.ctx.is_some()
    }

    /// The stretches of code in `[lo, hi)` the line table describes, as
    /// (start, end) address pairs, in address order.
    pub fn code_ranges(&self, lo: u64, hi: u64) -> Vec<(u64, u64)> {
        self.line_rows(lo, hi)
            .into_iter()
            .map(|(a, b, _, _)| (a, b))
            .collect()
    }

    /// The line table's rows in `[lo, hi)`: (start, end, file, line), in
    /// address order, each at the line of the code itself (for inlined
    /// code, a line of the function inlined).
    pub fn line_rows(&self, lo: u64, hi: u64) -> Vec<(u64, u64, String, u32)> {
        let Some(ctx) = &self.ctx else {
            return Vec::new();
        };
        let Ok(rows) = ctx.find_location_range(lo, hi) else {
            return Vec::new();
        };
        rows.filter_map(|(a, len, loc)| {
            let line = loc.line.filter(|&l| l > 0)?;
            let file = loc.file?;
            let (a, b) = (a.max(lo), a.saturating_add(len).min(hi));
            (a < b).then(|| (a, b, file.to_string(), line))
        })
        .collect()
    }

    /// The name of the function whose code inlined elsewhere is at `off`
    /// (the innermost of several frames); `None` for a function's own code.
    pub fn inlined_name(&self, off: u64) -> Option<String> {
        let ctx = self.ctx.as_ref()?;
        let mut frames = ctx.find_frames(off).skip_all_loads().ok()?;
        let inner = frames.next().ok()??;
        frames.next().ok()??;
        let name = inner.function?.raw_name().ok().map(|n| demangle(&n))?;
        Some(name)
    }

    /// The source file and line of the code at `off`, in the function that
    /// holds it: code inlined there is placed at the line of the call, so
    /// that a function's lines are its own.
    pub fn outer_line(&self, off: u64) -> Option<(String, u32)> {
        let ctx = self.ctx.as_ref()?;
        let mut outer = None;
        if let Ok(mut frames) = ctx.find_frames(off).skip_all_loads() {
            while let Ok(Some(f)) = frames.next() {
                outer = f.location.and_then(|l| Some((l.file?, l.line?)));
            }
        }
        if outer.is_none() {
            outer = ctx
                .find_location(off)
                .ok()
                .flatten()
                .and_then(|l| Some((l.file?, l.line?)));
        }
        outer
            .filter(|&(_, line)| line > 0)
            .map(|(file, line)| (file.to_string(), line))
    }
}

/// The symbol at `off`, or the one whose extent holds it.
fn lookup<'s, 'a>(syms: &'s [FnSym<'a>], off: u64) -> Option<&'s FnSym<'a>> {
    let i = syms.partition_point(|s| s.addr <= off);
    let below = syms[..i].last()?.addr;
    let j = syms.partition_point(|s| s.addr < below);
    let group = &syms[j..i];
    if below == off {
        return group.first();
    }
    // off >= s.addr here; a malformed st_size must not overflow the sum.
    group.iter().find(|s| off - s.addr < s.size)
}

/// A readable name for a mangled one; other names as they are.
pub fn demangle(name: &str) -> String {
    if let Ok(d) = rustc_demangle::try_demangle(name) {
        return format!("{d:#}");
    }
    if name.starts_with("_Z") {
        if let Ok(s) = cpp_demangle::Symbol::new(name) {
            if let Ok(d) = s.demangle(&cpp_demangle::DemangleOptions::default()) {
                return d;
            }
        }
    }
    name.to_string()
}

type Context<'d> = addr2line::Context<gimli::EndianSlice<'d, gimli::RunTimeEndian>>;

/// The DWARF sections of a library; `None` without debug information.
fn dwarf_sections<'d>(file: &object::File<'d>) -> Option<gimli::DwarfSections<Cow<'d, [u8]>>> {
    file.section_by_name(".debug_info")?;
    let load = |id: gimli::SectionId| -> Result<Cow<'d, [u8]>, gimli::Error> {
        Ok(file
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .unwrap_or(Cow::Borrowed(&[])))
    };
    gimli::DwarfSections::load(load).ok()
}

/// The function's name in DWARF, and its file and line at `off`: those of
/// the outermost frame, so that code inlined at a function's entry is
/// placed in the function, not in what was inlined there.
fn locate(ctx: &Context, off: u64) -> (Option<String>, Option<String>, Option<u32>) {
    let mut outer = (None, None, None);
    if let Ok(mut frames) = ctx.find_frames(off).skip_all_loads() {
        while let Ok(Some(f)) = frames.next() {
            let name = f
                .function
                .as_ref()
                .and_then(|n| n.raw_name().ok())
                .map(|n| demangle(&n));
            let (file, line) = match &f.location {
                Some(l) => (l.file.map(str::to_string), l.line),
                None => (None, None),
            };
            outer = (name, file, line);
        }
    }
    if outer.1.is_none() {
        if let Ok(Some(l)) = ctx.find_location(off) {
            outer.1 = l.file.map(str::to_string);
            outer.2 = l.line;
        }
    }
    outer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_rust_and_cpp() {
        assert_eq!(
            demangle("_ZN4core3ptr13drop_in_place17h0123456789abcdefE"),
            "core::ptr::drop_in_place"
        );
        assert_eq!(demangle("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
        assert_eq!(demangle("_ZN3foo3barEi"), "foo::bar(int)");
        assert_eq!(demangle("parse_record"), "parse_record");
        assert_eq!(demangle("_Znot-mangled"), "_Znot-mangled");
    }

    #[test]
    fn looks_up_exact_and_containing_symbols() {
        let syms = vec![
            FnSym {
                addr: 0x10,
                size: 0x10,
                name: "a",
                global: false,
            },
            FnSym {
                addr: 0x20,
                size: 0,
                name: "b_global",
                global: true,
            },
            FnSym {
                addr: 0x20,
                size: 0x8,
                name: "b_local",
                global: false,
            },
        ];
        let name = |off| lookup(&syms, off).map(|s| s.name);
        assert_eq!(name(0x10), Some("a"));
        assert_eq!(name(0x18), Some("a"));
        assert_eq!(name(0x20), Some("b_global"));
        assert_eq!(name(0x24), Some("b_local"));
        assert_eq!(name(0x40), None);
        assert_eq!(name(0x8), None);
    }
}
