//! `fuzz-worker pc-table` for a Go library. Go's compiler (`-d=libfuzzer`)
//! gives every instrumented block an 8-bit counter in `__sancov_cntrs` but
//! emits no PC table, so the table is made here from the machine code:
//! each function's x86-64 code is decoded (iced-x86) and the first
//! instruction that reads or writes a counter (the start of its
//! increment) is that counter's block. The first counter of each function
//! stands for its entry, at the function's symbol, as SanitizerCoverage's
//! function-entry flag does. Counters are numbered by their offset in the
//! section: a Go library's counters are the only ones its worker
//! registers (`golib::load`), so they are numbered from 0.

use fuzz_core::search::pctable::PcEntry;
use iced_x86::{Decoder, DecoderOptions};
use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
use std::path::Path;

/// The PC table of the Go library at `path`, in function order.
pub fn pc_table(path: &Path) -> Result<Vec<PcEntry>, String> {
    let data = crate::library::file_bytes(path).map_err(|e| fuzz_core::error::describe(&e))?;
    let file = object::File::parse(&*data).map_err(|e| format!("unreadable ELF file: {e}"))?;
    if file.architecture() != object::Architecture::X86_64 {
        return Err("a Go library's blocks can be found on x86-64 only".into());
    }
    let counters = file
        .section_by_name("__sancov_cntrs")
        .ok_or("no __sancov_cntrs section: not built with Go's libFuzzer instrumentation")?;
    let (lo, hi) = (counters.address(), counters.address() + counters.size());
    let code: fuzz_core::image::Sections = file
        .sections()
        .filter(|s| s.kind() == object::SectionKind::Text)
        .filter_map(|s| Some((s.address(), s.data().ok()?)))
        .collect();
    let mut functions: Vec<(u64, u64)> = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text && !s.is_undefined() && s.size() > 0)
        .map(|s| (s.address(), s.size()))
        .collect();
    functions.sort_unstable();
    functions.dedup_by_key(|f| f.0);
    let mut seen = vec![false; counters.size() as usize];
    let mut out = Vec::new();
    for (start, size) in functions {
        let Some(bytes) = usize::try_from(size)
            .ok()
            .and_then(|n| code.bytes(start, n))
        else {
            continue;
        };
        let mut first = true;
        for i in Decoder::with_ip(64, bytes, start, DecoderOptions::NONE) {
            if i.is_invalid() {
                break;
            }
            if !i.is_ip_rel_memory_operand() {
                continue;
            }
            let at = i.ip_rel_memory_address();
            if !(lo..hi).contains(&at) || std::mem::replace(&mut seen[(at - lo) as usize], true) {
                continue;
            }
            out.push(PcEntry {
                counter: (at - lo) as u32,
                offset: if first { start } else { i.ip() },
                flags: u64::from(first),
            });
            first = false;
        }
    }
    Ok(out)
}
