//! The objects the dynamic loader has mapped into this process (the
//! executable, the target library, the libraries they need), from the
//! loader's own list (`dl_iterate_phdr`).
//!
//! Not from `/proc/self/maps`: a file can be mapped there for other
//! reasons. The worker maps the target library's file itself to scan its
//! code for constants while it loads (`library::code_constants`), and that
//! mapping, read as part of the library, would stretch the library's range
//! over whatever lies between the two (libc, the stack of a signal).

use std::ffi::{c_int, CStr};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// A loaded object: its file (empty for the executable), its load bias
/// and the address ranges of its loadable segments.
#[derive(Debug)]
pub struct Object {
    pub path: PathBuf,
    pub bias: usize,
    pub segments: Vec<(usize, usize)>,
}

impl Object {
    pub fn is_executable(&self) -> bool {
        self.path.as_os_str().is_empty()
    }

    pub fn contains(&self, addr: usize) -> bool {
        self.segments
            .iter()
            .any(|&(lo, hi)| lo <= addr && addr < hi)
    }

    /// From its lowest segment's start to its highest's end; `None` when
    /// it has no loadable segment.
    pub fn span(&self) -> Option<(usize, usize)> {
        let lo = self.segments.iter().map(|s| s.0).min()?;
        let hi = self.segments.iter().map(|s| s.1).max()?;
        Some((lo, hi))
    }
}

/// Every loaded object, in the loader's order (the executable first).
pub fn objects() -> Vec<Object> {
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        data: *mut libc::c_void,
    ) -> c_int {
        // SAFETY: the loader passes a valid dl_phdr_info, and `data` is the
        // vector passed to dl_iterate_phdr below.
        let (info, out) = unsafe { (&*info, &mut *(data as *mut Vec<Object>)) };
        let name = if info.dlpi_name.is_null() {
            &[][..]
        } else {
            // SAFETY: dlpi_name is a NUL-terminated string when not null.
            unsafe { CStr::from_ptr(info.dlpi_name) }.to_bytes()
        };
        let bias = info.dlpi_addr as usize;
        let mut segments = Vec::new();
        for i in 0..info.dlpi_phnum as usize {
            // SAFETY: dlpi_phdr has dlpi_phnum entries.
            let ph = unsafe { &*info.dlpi_phdr.add(i) };
            if ph.p_type == libc::PT_LOAD {
                let lo = bias.wrapping_add(ph.p_vaddr as usize);
                segments.push((lo, lo.wrapping_add(ph.p_memsz as usize)));
            }
        }
        out.push(Object {
            path: PathBuf::from(std::ffi::OsStr::from_bytes(name)),
            bias,
            segments,
        });
        0
    }
    let mut objects: Vec<Object> = Vec::new();
    // SAFETY: the callback only reads its argument and appends to the
    // vector, which outlives the call.
    unsafe {
        libc::dl_iterate_phdr(
            Some(each),
            &mut objects as *mut Vec<Object> as *mut libc::c_void,
        );
    }
    objects
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object_at(addr: usize) -> Option<Object> {
        objects().into_iter().find(|o| o.contains(addr))
    }

    #[test]
    fn an_object_s_span_is_its_segments_not_another_mapping_of_its_file() {
        // libc's code, and a fresh mapping of libc's own file beside it,
        // which /proc/self/maps would list under the same path.
        let strlen = libc::strlen as *const () as usize;
        let libc_obj = object_at(strlen).expect("strlen lies in a loaded object");
        assert!(!libc_obj.is_executable());
        let file = std::fs::File::open(&libc_obj.path).expect("libc's file opens");
        // SAFETY: a read-only private mapping of a file no one writes.
        let copy = unsafe { memmap2::Mmap::map(&file) }.expect("libc's file maps");
        let (lo, hi) = libc_obj.span().expect("libc has loadable segments");
        assert!(lo <= strlen && strlen < hi);
        let at = copy.as_ptr() as usize;
        // /proc/self/maps lists the copy under libc's own path.
        let canon = std::fs::canonicalize(&libc_obj.path).expect("libc's path resolves");
        let maps = std::fs::read_to_string("/proc/self/maps").expect("maps reads");
        let listed = maps
            .lines()
            .any(|l| l.starts_with(&format!("{at:x}-")) && l.ends_with(&*canon.to_string_lossy()));
        assert!(
            listed,
            "the copy at {at:#x} is listed as {canon:?}:\n{maps}"
        );
        assert!(
            !(lo..hi).contains(&at) && object_at(at).is_none(),
            "a mapping of the file is not the object: {at:#x} in {lo:#x}..{hi:#x}"
        );
        // The executable is listed, with no path.
        let me = object_at(objects as *const () as usize).expect("our own code is loaded");
        assert!(me.is_executable());
        assert!(objects()[0].is_executable());
    }
}
