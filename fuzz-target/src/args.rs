//! Argument types of typed targets and their packed encoding.

use std::fmt;
use std::str::FromStr;

/// One of the 17 Go types a fuzz target may take (Go's `byte` and `rune` are
/// aliases of `uint8` and `int32`), or a self-mutating custom value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgType {
    Bytes,
    String,
    Bool,
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float32,
    Float64,
    /// `custom("name", …)`: opaque bytes the target mutates itself. Packed
    /// like `[]byte`.
    Custom(String),
}

impl ArgType {
    /// All the fixed Go types, in the order Go's documentation lists them.
    pub const GO_TYPES: [ArgType; 15] = [
        ArgType::Bytes,
        ArgType::String,
        ArgType::Bool,
        ArgType::Int,
        ArgType::Int8,
        ArgType::Int16,
        ArgType::Int32,
        ArgType::Int64,
        ArgType::Uint,
        ArgType::Uint8,
        ArgType::Uint16,
        ArgType::Uint32,
        ArgType::Uint64,
        ArgType::Float32,
        ArgType::Float64,
    ];

    /// The name our tools print and accept first: Go's spelling, with `byte`
    /// and `rune` for `uint8` and `int32` as Go's corpus files write them.
    pub fn name(&self) -> &str {
        match self {
            ArgType::Bytes => "[]byte",
            ArgType::String => "string",
            ArgType::Bool => "bool",
            ArgType::Int => "int",
            ArgType::Int8 => "int8",
            ArgType::Int16 => "int16",
            ArgType::Int32 => "rune",
            ArgType::Int64 => "int64",
            ArgType::Uint => "uint",
            ArgType::Uint8 => "byte",
            ArgType::Uint16 => "uint16",
            ArgType::Uint32 => "uint32",
            ArgType::Uint64 => "uint64",
            ArgType::Float32 => "float32",
            ArgType::Float64 => "float64",
            ArgType::Custom(name) => name,
        }
    }

    /// Bytes taken in the packed encoding; `None` for length-prefixed types.
    pub fn fixed_size(&self) -> Option<usize> {
        match self {
            ArgType::Bytes | ArgType::String | ArgType::Custom(_) => None,
            ArgType::Bool | ArgType::Int8 | ArgType::Uint8 => Some(1),
            ArgType::Int16 | ArgType::Uint16 => Some(2),
            ArgType::Int32 | ArgType::Uint32 | ArgType::Float32 => Some(4),
            ArgType::Int | ArgType::Int64 | ArgType::Uint | ArgType::Uint64 | ArgType::Float64 => {
                Some(8)
            }
        }
    }

    /// Parses a signature such as `"string, int64, []byte"` (the contents of
    /// a target's `FuzzName_args` symbol). An empty signature is `[]byte`.
    pub fn parse_list(s: &str) -> Result<Vec<ArgType>, ParseArgTypeError> {
        if s.trim().is_empty() {
            return Ok(vec![ArgType::Bytes]);
        }
        s.split(',').map(|t| t.trim().parse()).collect()
    }

    /// Formats a list as `parse_list` reads it.
    pub fn format_list(types: &[ArgType]) -> String {
        let names: Vec<String> = types.iter().map(ArgType::to_string).collect();
        names.join(", ")
    }
}

/// As `FromStr` reads it: Go's name, or `custom(NAME)`.
impl fmt::Display for ArgType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgType::Custom(name) => write!(f, "custom({name})"),
            other => f.write_str(other.name()),
        }
    }
}

/// A type name that is not one of Go's fuzzable types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseArgTypeError(pub String);

impl fmt::Display for ParseArgTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown type {:?} (want []byte, string, bool, int, int8, int16, int32, rune, int64, uint, uint8, byte, uint16, uint32, uint64, float32 or float64)",
            self.0
        )
    }
}

impl std::error::Error for ParseArgTypeError {}

impl FromStr for ArgType {
    type Err = ParseArgTypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "[]byte" | "[]uint8" => ArgType::Bytes,
            "string" => ArgType::String,
            "bool" => ArgType::Bool,
            "int" => ArgType::Int,
            "int8" => ArgType::Int8,
            "int16" => ArgType::Int16,
            "int32" | "rune" => ArgType::Int32,
            "int64" => ArgType::Int64,
            "uint" => ArgType::Uint,
            "uint8" | "byte" => ArgType::Uint8,
            "uint16" => ArgType::Uint16,
            "uint32" => ArgType::Uint32,
            "uint64" => ArgType::Uint64,
            "float32" => ArgType::Float32,
            "float64" => ArgType::Float64,
            other => {
                if let Some(name) = other
                    .strip_prefix("custom(")
                    .and_then(|r| r.strip_suffix(')'))
                    .filter(|n| !n.is_empty())
                {
                    ArgType::Custom(name.to_string())
                } else {
                    return Err(ParseArgTypeError(other.to_string()));
                }
            }
        })
    }
}

/// Packs arguments in the order a typed target reads them.
#[derive(Default, Debug, Clone)]
pub struct ArgWriter {
    buf: Vec<u8>,
}

impl ArgWriter {
    pub fn new() -> Self {
        Self::default()
    }
    /// A writer that packs into `buf`, emptied first: its allocation is
    /// reused, so packing input after input into one buffer (as the worker
    /// does) allocates only when an input outgrows it.
    pub fn with_buffer(mut buf: Vec<u8>) -> Self {
        buf.clear();
        ArgWriter { buf }
    }
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.buf.push(v as u8);
    }
    #[inline]
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    #[inline]
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    /// A `string` or `[]byte`: 4-byte little-endian length, then the bytes.
    /// Lengths are capped by the caller (`-max_len`); longer than `u32::MAX`
    /// cannot be passed.
    #[inline]
    pub fn bytes(&mut self, v: &[u8]) {
        let len = u32::try_from(v.len()).expect("argument longer than 4 GiB");
        self.u32(len);
        self.buf.extend_from_slice(v);
    }
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads packed arguments back; every read returns `None` once the input is
/// exhausted, so a target can never read out of bounds.
#[derive(Debug, Clone)]
pub struct ArgReader<'a> {
    data: &'a [u8],
}

impl<'a> ArgReader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        ArgReader { data }
    }
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.data.len() < n {
            return None;
        }
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        Some(head)
    }
    pub fn bool(&mut self) -> Option<bool> {
        self.take(1).map(|b| b[0] != 0)
    }
    pub fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    pub fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    pub fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            u64::from_le_bytes(a)
        })
    }
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.u32()? as usize;
        self.take(len)
    }
    /// True when every byte was consumed.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_round_trip() {
        for t in ArgType::GO_TYPES {
            assert_eq!(t.name().parse::<ArgType>().unwrap(), t);
        }
        assert_eq!("int32".parse::<ArgType>().unwrap(), ArgType::Int32);
        assert_eq!("uint8".parse::<ArgType>().unwrap(), ArgType::Uint8);
        assert!("uintptr".parse::<ArgType>().is_err());
        assert!("complex128".parse::<ArgType>().is_err());
    }

    #[test]
    fn custom_types_round_trip() {
        // Found by fuzz/self-fuzz.sh: "custom(0)" parsed, but printed as "0".
        let l = ArgType::parse_list("custom(0), string").unwrap();
        assert_eq!(ArgType::format_list(&l), "custom(0), string");
        assert_eq!(ArgType::parse_list(&ArgType::format_list(&l)).unwrap(), l);
    }

    #[test]
    fn signature_lists() {
        let l = ArgType::parse_list("string, int64, []byte").unwrap();
        assert_eq!(l, vec![ArgType::String, ArgType::Int64, ArgType::Bytes]);
        assert_eq!(ArgType::format_list(&l), "string, int64, []byte");
        assert_eq!(ArgType::parse_list("").unwrap(), vec![ArgType::Bytes]);
        assert!(ArgType::parse_list("string,, int").is_err());
    }

    #[test]
    fn packed_round_trip() {
        let mut w = ArgWriter::new();
        w.bytes(b"hello");
        w.u64(u64::MAX - 1);
        w.bool(true);
        w.u16(0xbeef);
        let packed = w.finish();
        assert_eq!(&packed[..4], &5u32.to_le_bytes());
        let mut r = ArgReader::new(&packed);
        assert_eq!(r.bytes(), Some(&b"hello"[..]));
        assert_eq!(r.u64(), Some(u64::MAX - 1));
        assert_eq!(r.bool(), Some(true));
        assert_eq!(r.u16(), Some(0xbeef));
        assert!(r.is_empty());
        assert_eq!(r.u8(), None);
    }

    #[test]
    fn truncated_input_reads_none() {
        let mut r = ArgReader::new(&[10, 0, 0, 0, b'a']);
        assert_eq!(r.bytes(), None);
    }
}
