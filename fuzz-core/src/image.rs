//! A library's sections where the loader places them: bytes looked up by
//! virtual address, for the scans that read a library's machine code or
//! read-only data without running it (fuzz-worker's code dictionaries and
//! Go PC table, fuzz-corpus's coverage report).

/// Sections of one kind, each its virtual address and its bytes.
#[derive(Debug, Default, Clone)]
pub struct Sections<'d>(Vec<(u64, &'d [u8])>);

impl<'d> Sections<'d> {
    /// The `len` bytes at virtual address `addr`, when one section holds
    /// them all.
    pub fn bytes(&self, addr: u64, len: usize) -> Option<&'d [u8]> {
        self.0.iter().find_map(|&(base, bytes)| {
            let start = usize::try_from(addr.checked_sub(base)?).ok()?;
            bytes.get(start..start.checked_add(len)?)
        })
    }
}

impl<'d> FromIterator<(u64, &'d [u8])> for Sections<'d> {
    fn from_iter<I: IntoIterator<Item = (u64, &'d [u8])>>(iter: I) -> Self {
        Sections(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_come_from_the_one_section_that_holds_them_all() {
        let s: Sections = [(0x1000, &b"abcd"[..]), (0x2000, &b"efgh"[..])]
            .into_iter()
            .collect();
        assert_eq!(s.bytes(0x1001, 2), Some(&b"bc"[..]));
        assert_eq!(s.bytes(0x2000, 4), Some(&b"efgh"[..]));
        assert_eq!(s.bytes(0x1002, 4), None, "past the section's end");
        assert_eq!(s.bytes(0x0fff, 1), None, "before every section");
        assert_eq!(s.bytes(u64::MAX, usize::MAX), None);
    }
}
