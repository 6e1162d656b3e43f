//! bench/realbugs nostr_nip04: decrypt the input (UTF-8 only) as NIP-04
//! content (`BASE64?iv=BASE64`) with nostr's nips::nip04::decrypt, between
//! two fixed keys (those of nostr's own nip04 tests).
use nostr::nips::nip04;
use nostr::{Keys, PublicKey, SecretKey};
use std::sync::OnceLock;

const SENDER_SECRET: &str = "6b911fd37cdf5c81d4c0adb1ab7fa822ed253ab0ad9aa18d77257c88b29b718e";
const RECEIVER_SECRET: &str = "7b911fd37cdf5c81d4c0adb1ab7fa822ed253ab0ad9aa18d77257c88b29b718e";

/// The sender's secret key and the receiver's public key, made once.
fn keys() -> Option<&'static (SecretKey, PublicKey)> {
    static KEYS: OnceLock<Option<(SecretKey, PublicKey)>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let sender = SecretKey::from_hex(SENDER_SECRET).ok()?;
        let receiver = SecretKey::from_hex(RECEIVER_SECRET).ok()?;
        Some((sender, Keys::new(receiver).public_key()))
    })
    .as_ref()
}

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let (Ok(text), Some((secret, public))) = (std::str::from_utf8(input), keys()) else {
        return 0;
    };
    let _ = nip04::decrypt(secret, public, text);
    0
}
