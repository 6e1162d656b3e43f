//! File names of corpus entries: the SHA-256 of the file's exact bytes, in
//! lowercase hex, cut to 16 digits as current Go writes them (Go 1.19 wrote
//! all 64; both count as digest names).

use sha2::{Digest, Sha256};

/// How many hex digits of the SHA-256 our file names keep.
pub const NAME_LEN: usize = 16;

/// The full lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The name our tools give a corpus file with these bytes.
pub fn entry_name(bytes: &[u8]) -> String {
    let mut h = sha256_hex(bytes);
    h.truncate(NAME_LEN);
    h
}

/// True if `name` has the shape of a digest name: 16 or 64 lowercase hex
/// digits.
pub fn is_digest_name(name: &str) -> bool {
    (name.len() == NAME_LEN || name.len() == 64)
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// True if `name` is a digest name and matches these bytes.
pub fn name_matches(name: &str, bytes: &[u8]) -> bool {
    is_digest_name(name) && sha256_hex(bytes).starts_with(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_written_name() {
        // A crasher Go 1.19 wrote (vectors/go-written/testdata/FuzzBytes).
        let bytes = b"go test fuzz v1\n[]byte(\"BUG\")\n";
        let full = "dd41b1fa66f374c7c0833e75558e623a0bf5a16fb0128f5953f5ddecf2000e81";
        assert_eq!(sha256_hex(bytes), full);
        assert_eq!(entry_name(bytes), &full[..16]);
        assert!(name_matches(full, bytes));
        assert!(name_matches(&full[..16], bytes));
        assert!(!name_matches("seed1", bytes));
        assert!(!is_digest_name("DD41B1FA66F374C7"));
    }
}
