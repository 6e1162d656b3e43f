//! Values of corpus entries: one per argument of a target.

use fuzz_target::{ArgType, ArgWriter};

/// One argument value. Go strings are byte strings, not necessarily UTF-8,
/// so `String` holds bytes too.
#[derive(Debug)]
pub enum Value {
    Bytes(Vec<u8>),
    String(Vec<u8>),
    Bool(bool),
    Int(i64),
    Int8(i8),
    Int16(i16),
    /// `int32`, also `rune`.
    Int32(i32),
    Int64(i64),
    Uint(u64),
    /// `uint8`, also `byte`.
    Uint8(u8),
    Uint16(u16),
    Uint32(u32),
    Uint64(u64),
    Float32(f32),
    Float64(f64),
    /// Our extension: `custom("name", []byte("…"))`, a value the target
    /// mutates itself.
    Custom {
        name: String,
        data: Vec<u8>,
    },
}

/// `clone_from` reuses the buffer of a byte value: the fuzzing loop
/// restores a parent into the same values every few executions.
impl Clone for Value {
    fn clone(&self) -> Value {
        use Value::*;
        match self {
            Bytes(b) => Bytes(b.clone()),
            String(b) => String(b.clone()),
            Custom { name, data } => Custom {
                name: name.clone(),
                data: data.clone(),
            },
            Bool(x) => Bool(*x),
            Int(x) => Int(*x),
            Int8(x) => Int8(*x),
            Int16(x) => Int16(*x),
            Int32(x) => Int32(*x),
            Int64(x) => Int64(*x),
            Uint(x) => Uint(*x),
            Uint8(x) => Uint8(*x),
            Uint16(x) => Uint16(*x),
            Uint32(x) => Uint32(*x),
            Uint64(x) => Uint64(*x),
            Float32(x) => Float32(*x),
            Float64(x) => Float64(*x),
        }
    }

    fn clone_from(&mut self, source: &Value) {
        use Value::*;
        match (self, source) {
            (Bytes(a), Bytes(b)) | (String(a), String(b)) => a.clone_from(b),
            (Custom { name, data }, Custom { name: n, data: d }) => {
                name.clone_from(n);
                data.clone_from(d);
            }
            (this, source) => *this = source.clone(),
        }
    }
}

/// Equality is bitwise for floats, so NaN payloads and -0 are told apart and
/// an entry equals itself.
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Float32(a), Float32(b)) => a.to_bits() == b.to_bits(),
            (Float64(a), Float64(b)) => a.to_bits() == b.to_bits(),
            (Bytes(a), Bytes(b)) | (String(a), String(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) | (Int64(a), Int64(b)) => a == b,
            (Int8(a), Int8(b)) => a == b,
            (Int16(a), Int16(b)) => a == b,
            (Int32(a), Int32(b)) => a == b,
            (Uint(a), Uint(b)) | (Uint64(a), Uint64(b)) => a == b,
            (Uint8(a), Uint8(b)) => a == b,
            (Uint16(a), Uint16(b)) => a == b,
            (Uint32(a), Uint32(b)) => a == b,
            (Custom { name: n1, data: d1 }, Custom { name: n2, data: d2 }) => n1 == n2 && d1 == d2,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl Value {
    /// The type of this value.
    pub fn arg_type(&self) -> ArgType {
        match self {
            Value::Bytes(_) => ArgType::Bytes,
            Value::String(_) => ArgType::String,
            Value::Bool(_) => ArgType::Bool,
            Value::Int(_) => ArgType::Int,
            Value::Int8(_) => ArgType::Int8,
            Value::Int16(_) => ArgType::Int16,
            Value::Int32(_) => ArgType::Int32,
            Value::Int64(_) => ArgType::Int64,
            Value::Uint(_) => ArgType::Uint,
            Value::Uint8(_) => ArgType::Uint8,
            Value::Uint16(_) => ArgType::Uint16,
            Value::Uint32(_) => ArgType::Uint32,
            Value::Uint64(_) => ArgType::Uint64,
            Value::Float32(_) => ArgType::Float32,
            Value::Float64(_) => ArgType::Float64,
            Value::Custom { name, .. } => ArgType::Custom(name.clone()),
        }
    }

    /// The zero value of a type, which an empty corpus starts from.
    pub fn zero(t: &ArgType) -> Value {
        match t {
            ArgType::Bytes => Value::Bytes(Vec::new()),
            ArgType::String => Value::String(Vec::new()),
            ArgType::Bool => Value::Bool(false),
            ArgType::Int => Value::Int(0),
            ArgType::Int8 => Value::Int8(0),
            ArgType::Int16 => Value::Int16(0),
            ArgType::Int32 => Value::Int32(0),
            ArgType::Int64 => Value::Int64(0),
            ArgType::Uint => Value::Uint(0),
            ArgType::Uint8 => Value::Uint8(0),
            ArgType::Uint16 => Value::Uint16(0),
            ArgType::Uint32 => Value::Uint32(0),
            ArgType::Uint64 => Value::Uint64(0),
            ArgType::Float32 => Value::Float32(0.0),
            ArgType::Float64 => Value::Float64(0.0),
            ArgType::Custom(name) => Value::Custom {
                name: name.clone(),
                data: Vec::new(),
            },
        }
    }

    /// The bytes of a `[]byte`, `string` or custom value.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) | Value::String(b) | Value::Custom { data: b, .. } => Some(b),
            _ => None,
        }
    }

    /// Appends this value in the packed encoding a typed target reads.
    pub fn pack(&self, w: &mut ArgWriter) {
        match *self {
            Value::Bytes(ref b) | Value::String(ref b) | Value::Custom { data: ref b, .. } => {
                w.bytes(b)
            }
            Value::Bool(v) => w.bool(v),
            Value::Int(v) | Value::Int64(v) => w.u64(v as u64),
            Value::Int8(v) => w.u8(v as u8),
            Value::Int16(v) => w.u16(v as u16),
            Value::Int32(v) => w.u32(v as u32),
            Value::Uint(v) | Value::Uint64(v) => w.u64(v),
            Value::Uint8(v) => w.u8(v),
            Value::Uint16(v) => w.u16(v),
            Value::Uint32(v) => w.u32(v),
            Value::Float32(v) => w.u32(v.to_bits()),
            Value::Float64(v) => w.u64(v.to_bits()),
        }
    }
}

/// Packs a whole entry for a typed target into `out`, replacing what it
/// held. Its allocation is reused: the worker packs every input it runs
/// into one buffer, which allocates only when an input outgrows it.
pub fn pack_into(values: &[Value], out: &mut Vec<u8>) {
    let mut w = ArgWriter::with_buffer(std::mem::take(out));
    for v in values {
        v.pack(&mut w);
    }
    *out = w.finish();
}

/// The types of an entry, as a list.
pub fn types_of(values: &[Value]) -> Vec<ArgType> {
    values.iter().map(Value::arg_type).collect()
}

/// Reads an entry back from the packed form a typed target takes, given
/// its types (the inverse of [`pack_into`]). `None` if the bytes do not hold
/// exactly those values.
pub fn unpack_all(bytes: &[u8], types: &[ArgType]) -> Option<Vec<Value>> {
    let mut r = fuzz_target::ArgReader::new(bytes);
    let mut out = Vec::with_capacity(types.len());
    for t in types {
        out.push(match t {
            ArgType::Bytes => Value::Bytes(r.bytes()?.to_vec()),
            ArgType::String => Value::String(r.bytes()?.to_vec()),
            ArgType::Custom(name) => Value::Custom {
                name: name.clone(),
                data: r.bytes()?.to_vec(),
            },
            ArgType::Bool => Value::Bool(r.u8()? != 0),
            ArgType::Int => Value::Int(r.u64()? as i64),
            ArgType::Int8 => Value::Int8(r.u8()? as i8),
            ArgType::Int16 => Value::Int16(r.u16()? as i16),
            ArgType::Int32 => Value::Int32(r.u32()? as i32),
            ArgType::Int64 => Value::Int64(r.u64()? as i64),
            ArgType::Uint => Value::Uint(r.u64()?),
            ArgType::Uint8 => Value::Uint8(r.u8()?),
            ArgType::Uint16 => Value::Uint16(r.u16()?),
            ArgType::Uint32 => Value::Uint32(r.u32()?),
            ArgType::Uint64 => Value::Uint64(r.u64()?),
            ArgType::Float32 => Value::Float32(f32::from_bits(r.u32()?)),
            ArgType::Float64 => Value::Float64(f64::from_bits(r.u64()?)),
        });
    }
    if !r.is_empty() {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_from_reuses_the_buffer_and_copies_exactly() {
        let mut v = Value::Bytes(Vec::with_capacity(64));
        let ptr = v.as_bytes().unwrap().as_ptr();
        v.clone_from(&Value::Bytes(b"abc".to_vec()));
        assert_eq!(v, Value::Bytes(b"abc".to_vec()));
        assert_eq!(v.as_bytes().unwrap().as_ptr(), ptr, "no new allocation");
        v.clone_from(&Value::Float64(-0.0));
        assert_eq!(v, Value::Float64(-0.0));
        let c = Value::Custom {
            name: "t".into(),
            data: vec![1],
        };
        v.clone_from(&c);
        assert_eq!(v, c);
        assert_eq!(
            Value::String(b"s".to_vec()).clone(),
            Value::String(b"s".to_vec())
        );
    }

    #[test]
    fn pack_unpack_round_trip() {
        let v = vec![
            Value::String(b"ab".to_vec()),
            Value::Int64(-3),
            Value::Bytes(vec![0, 255]),
            Value::Bool(true),
            Value::Float32(f32::from_bits(0x7fc0_0001)),
            Value::Int32(-1),
            Value::Uint16(65535),
        ];
        let types = types_of(&v);
        let mut packed = vec![9; 100];
        pack_into(&v, &mut packed);
        assert_eq!(unpack_all(&packed, &types).unwrap(), v);
        assert!(unpack_all(&packed[..5], &types).is_none());
        let ptr = packed.as_ptr();
        pack_into(&v[..2], &mut packed);
        assert_eq!(packed.as_ptr(), ptr, "the buffer is reused");
        assert_eq!(unpack_all(&packed, &types[..2]).unwrap(), v[..2]);
        let mut extra = packed.clone();
        extra.push(0);
        assert!(unpack_all(&extra, &types[..2]).is_none());
    }
}
