//! The "go test fuzz v1" corpus file format, byte for byte as Go 1.19 reads
//! and writes it.
//!
//! Reading follows Go's `unmarshalCorpusFile`: split on `\n` only, the
//! header `go test fuzz v1` (one trailing `\r` allowed), then one value per
//! non-blank line, each line trimmed of Unicode white space and read as one
//! Go call expression (see `golex`). Whatever Go accepts we accept, and the
//! rest is refused with the line number and the reason.
//!
//! Writing follows Go's `marshalCorpusFile`: `int32` as `rune('…')` when it
//! is a valid code point, `uint8` as `byte('…')`, floats in `%v` form with
//! unusual NaN payloads as `math.Float64frombits(0x…)`, strings quoted by
//! `strconv.Quote` with Go 1.19's Unicode 13 tables, every line ending in
//! `\n`. Our one extension, `custom("type", []byte("…"))`, Go does not read.

use crate::error::{Error, Result};
use crate::format::gofloat::{self, FloatError};
use crate::format::golex::{self, Arg, Call, Fun, LitKind, UnOp, Unquoted};
use crate::format::goquote::{quote, quote_rune};
use crate::format::value::Value;
use fuzz_target::ArgType;

/// The first line of every v1 file.
pub const HEADER: &str = "go test fuzz v1";

fn codec_err(line: usize, reason: impl Into<String>) -> Error {
    Error::Codec {
        path: None,
        line,
        reason: reason.into(),
    }
}

/// Go's `bytes.TrimSpace`: Unicode white space off both ends; bytes that are
/// not valid UTF-8 are not space.
fn trim_space(mut b: &[u8]) -> &[u8] {
    while let Some(c) = first_char(b).filter(|c| c.is_whitespace()) {
        b = &b[c.len_utf8()..];
    }
    while let Some(c) = last_char(b).filter(|c| c.is_whitespace()) {
        b = &b[..b.len() - c.len_utf8()];
    }
    b
}

fn first_char(b: &[u8]) -> Option<char> {
    let n = b.len().min(4);
    (1..=n).find_map(|k| {
        std::str::from_utf8(&b[..k])
            .ok()
            .and_then(|s| s.chars().next())
    })
}

fn last_char(b: &[u8]) -> Option<char> {
    let n = b.len().min(4);
    (1..=n).find_map(|k| {
        std::str::from_utf8(&b[b.len() - k..])
            .ok()
            .and_then(|s| s.chars().next())
    })
}

/// Decodes a v1 file into its values. An error names the line (the header
/// is line 1) and the reason; the caller adds the file with
/// [`Error::in_file`].
pub fn decode(bytes: &[u8]) -> Result<Vec<Value>> {
    if bytes.is_empty() {
        return Err(codec_err(
            0,
            "empty file: want the line \"go test fuzz v1\" and one value per line",
        ));
    }
    let mut lines = bytes.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    if !bytes.contains(&b'\n') {
        return Err(codec_err(
            1,
            "must include version and at least one value (no newline in the file)",
        ));
    }
    let version = first.strip_suffix(b"\r").unwrap_or(first);
    if version != HEADER.as_bytes() {
        return Err(codec_err(
            1,
            format!(
                "unknown encoding version {}: want \"{HEADER}\"",
                quote(&version[..version.len().min(80)])
            ),
        ));
    }
    let mut values = Vec::new();
    for (i, raw) in lines.enumerate() {
        let line_no = i + 2;
        let line = trim_space(raw);
        if line.is_empty() {
            continue;
        }
        let v = decode_line(line).map_err(|reason| {
            let shown = if line.len() > 80 { &line[..80] } else { line };
            codec_err(
                line_no,
                format!(
                    "malformed line {}{}: {reason}",
                    quote(shown),
                    if line.len() > 80 { "…" } else { "" }
                ),
            )
        })?;
        values.push(v);
    }
    Ok(values)
}

/// Decodes one trimmed value line.
pub fn decode_line(line: &[u8]) -> std::result::Result<Value, String> {
    let text = golex::check_chars(line).map_err(|e| format!("column {}: {}", e.col, e.msg))?;
    let call = golex::parse_line(text).map_err(|e| format!("column {}: {}", e.col, e.msg))?;
    value_of(call)
}

/// The value of one line's call expression, as Go's `parseCorpusValue`.
fn value_of(call: Call<'_>) -> std::result::Result<Value, String> {
    if call.fun == Fun::Ident("custom") {
        return custom_value(&call);
    }
    if call.args.len() != 1 {
        return Err(format!(
            "expected call expression with 1 argument; got {}",
            call.args.len()
        ));
    }
    let arg = &call.args[0];
    let type_name = match call.fun {
        Fun::ByteSlice => {
            return match arg {
                Arg::Lit(LitKind::String, lit) => golex::unquote_string(lit)
                    .map(Value::Bytes)
                    .ok_or_else(|| "invalid syntax".to_string()),
                _ => Err("string literal required for type []byte".into()),
            };
        }
        Fun::OtherArray { has_len: true } => return Err("expected []byte or primitive type".into()),
        Fun::OtherArray { has_len: false } => return Err("expected []byte".into()),
        Fun::Selector("math", "Float64frombits") => "float64-bits",
        Fun::Selector("math", "Float32frombits") => "float32-bits",
        Fun::Selector(..) => return Err("invalid selector type".into()),
        Fun::Ident("bool") => {
            return match arg {
                Arg::Ident("true") => Ok(Value::Bool(true)),
                Arg::Ident("false") => Ok(Value::Bool(false)),
                Arg::Ident(_) => Err("true or false required for type bool".into()),
                _ => Err("malformed bool".into()),
            };
        }
        Fun::Ident(name) => name,
    };
    let (val, kind) = literal_of(arg)?;
    primitive_value(type_name, &val, kind)
}

/// The literal text and kind of a primitive's argument, as Go's reader
/// builds them (a minus sign joined to its literal, `Inf` and `NaN`).
fn literal_of(arg: &Arg<'_>) -> std::result::Result<(String, LitKind), String> {
    Ok(match arg {
        Arg::Unary(op, inner) => match inner.as_ref() {
            Arg::Lit(kind, text) => {
                if *op != UnOp::Sub {
                    return Err(format!(
                        "unsupported operation on int/float: {}",
                        op.as_str()
                    ));
                }
                (format!("-{text}"), *kind)
            }
            Arg::Ident("Inf") => (
                if *op == UnOp::Sub { "-Inf" } else { "+Inf" }.to_string(),
                LitKind::Float,
            ),
            _ => return Err("expected operation on int or float type".into()),
        },
        Arg::Lit(kind, text) => (text.to_string(), *kind),
        Arg::Ident("NaN") => ("NaN".to_string(), LitKind::Float),
        Arg::Ident(_) | Arg::ByteSliceOf(_) => {
            return Err("literal value required for primitive type".into())
        }
    })
}

/// A value of primitive type `type_name` (or `float32-bits`/`float64-bits`
/// for `math.Float32frombits`/`Float64frombits`) from its literal.
fn primitive_value(
    type_name: &str,
    val: &str,
    kind: LitKind,
) -> std::result::Result<Value, String> {
    match type_name {
        "string" => {
            if kind != LitKind::String {
                return Err("string literal value required for type string".into());
            }
            golex::unquote_string(val)
                .map(Value::String)
                .ok_or_else(|| "invalid syntax".into())
        }
        "byte" | "rune" => char_value(type_name == "rune", val, kind),
        "int" | "int8" | "int16" | "int32" | "int64" => {
            if kind != LitKind::Int {
                return Err("integer literal required for int types".into());
            }
            Ok(match type_name {
                "int" => Value::Int(parse_int(val, 64)?),
                "int8" => Value::Int8(parse_int(val, 8)? as i8),
                "int16" => Value::Int16(parse_int(val, 16)? as i16),
                "int32" => Value::Int32(parse_int(val, 32)? as i32),
                _ => Value::Int64(parse_int(val, 64)?),
            })
        }
        "uint" | "uint8" | "uint16" | "uint32" | "uint64" => {
            if kind != LitKind::Int {
                return Err("integer literal required for uint types".into());
            }
            Ok(match type_name {
                "uint" => Value::Uint(parse_uint(val, 64)?),
                "uint8" => Value::Uint8(parse_uint(val, 8)? as u8),
                "uint16" => Value::Uint16(parse_uint(val, 16)? as u16),
                "uint32" => Value::Uint32(parse_uint(val, 32)? as u32),
                _ => Value::Uint64(parse_uint(val, 64)?),
            })
        }
        "float32" | "float64" => float_value(type_name, val, kind),
        "float32-bits" => {
            if kind != LitKind::Int {
                return Err("integer literal required for math.Float32frombits type".into());
            }
            Ok(Value::Float32(f32::from_bits(parse_uint(val, 32)? as u32)))
        }
        "float64-bits" => {
            if kind != LitKind::Float && kind != LitKind::Int {
                return Err("integer literal required for math.Float64frombits type".into());
            }
            Ok(Value::Float64(f64::from_bits(parse_uint(val, 64)?)))
        }
        _ => Err(format!(
            "expected []byte or primitive type, not {type_name:?}"
        )),
    }
}

/// A `byte` or `rune` (`rune` true) from an integer or character literal.
fn char_value(rune: bool, val: &str, kind: LitKind) -> std::result::Result<Value, String> {
    if kind == LitKind::Int {
        return if rune {
            parse_int(val, 32).map(|v| Value::Int32(v as i32))
        } else {
            parse_uint(val, 8).map(|v| Value::Uint8(v as u8))
        };
    }
    if kind != LitKind::Char {
        return Err("character literal required for byte/rune types".into());
    }
    let inner = &val[1..val.len() - 1];
    let (code, _) =
        golex::unquote_char(inner, b'\'').ok_or_else(|| "invalid syntax".to_string())?;
    if rune {
        return Ok(Value::Int32(code.code() as i32));
    }
    match code {
        Unquoted::Byte(b) => Ok(Value::Uint8(b)),
        Unquoted::Char(c) if (c as u32) < 256 => Ok(Value::Uint8(c as u32 as u8)),
        Unquoted::Char(_) => Err("can only encode single byte to a byte type".into()),
    }
}

/// A `float32` or `float64` from a float or integer literal, as Go's
/// `strconv.ParseFloat`.
fn float_value(type_name: &str, val: &str, kind: LitKind) -> std::result::Result<Value, String> {
    if kind != LitKind::Float && kind != LitKind::Int {
        return Err(format!(
            "float or integer literal required for {type_name} type"
        ));
    }
    let single = type_name == "float32";
    let v = gofloat::parse(val, single).map_err(|e| match e {
        FloatError::Syntax => format!("parsing {val:?}: invalid syntax"),
        FloatError::Range => format!("parsing {val:?}: value out of range"),
    })?;
    Ok(if single {
        Value::Float32(v as f32)
    } else {
        Value::Float64(v)
    })
}

fn custom_value(call: &Call<'_>) -> std::result::Result<Value, String> {
    const USAGE: &str = "custom values are written custom(\"type\", []byte(\"…\"))";
    match call.args.as_slice() {
        [Arg::Lit(LitKind::String, name), Arg::ByteSliceOf(data)] if !call.ellipsis => {
            let name = golex::unquote_string(name).ok_or("invalid syntax")?;
            let name = String::from_utf8(name)
                .map_err(|_| "a custom type name must be valid UTF-8".to_string())?;
            if name.is_empty() || name.contains([',', '(', ')']) {
                return Err(format!("invalid custom type name {name:?}"));
            }
            let data = golex::unquote_string(data).ok_or("invalid syntax")?;
            Ok(Value::Custom { name, data })
        }
        _ => Err(USAGE.into()),
    }
}

/// `strconv.ParseUint(s, 0, bits)`, for Go integer literals.
fn parse_uint(s: &str, bits: u32) -> std::result::Result<u64, String> {
    let syntax = || format!("parsing {s:?}: invalid syntax");
    let range = || format!("parsing {s:?}: value out of range");
    if s.is_empty() {
        return Err(syntax());
    }
    let b = s.as_bytes();
    let (base, digits) =
        if b[0] == b'0' && b.len() >= 3 && matches!(b[1] | 0x20, b'b' | b'o' | b'x') {
            (
                match b[1] | 0x20 {
                    b'b' => 2,
                    b'o' => 8,
                    _ => 16,
                },
                &s[2..],
            )
        } else if b[0] == b'0' && b.len() > 1 {
            (8, &s[1..])
        } else {
            (10, s)
        };
    let mut underscores = false;
    let mut n: u64 = 0;
    let max: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let mut overflow = false;
    for c in digits.bytes() {
        if c == b'_' {
            underscores = true;
            continue;
        }
        let d = match c {
            b'0'..=b'9' => (c - b'0') as u64,
            b'a'..=b'z' => (c - b'a' + 10) as u64,
            b'A'..=b'Z' => (c - b'A' + 10) as u64,
            _ => return Err(syntax()),
        };
        if d >= base {
            return Err(syntax());
        }
        match n.checked_mul(base).and_then(|m| m.checked_add(d)) {
            Some(m) if m <= max => n = m,
            _ => overflow = true,
        }
    }
    if underscores && !gofloat::underscore_ok(s) {
        return Err(syntax());
    }
    if overflow {
        return Err(range());
    }
    Ok(n)
}

/// `strconv.ParseInt(s, 0, bits)`, for Go integer literals with an optional
/// leading `-`.
fn parse_int(s: &str, bits: u32) -> std::result::Result<i64, String> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let un =
        parse_uint(body, 64).map_err(|e| e.replace(&format!("{body:?}"), &format!("{s:?}")))?;
    let cutoff: u64 = 1 << (bits - 1);
    if !neg && un >= cutoff {
        return Err(format!("parsing {s:?}: value out of range"));
    }
    if neg && un > cutoff {
        return Err(format!("parsing {s:?}: value out of range"));
    }
    Ok(if neg {
        (un as i64).wrapping_neg()
    } else {
        un as i64
    })
}

/// The canonical literal of one value, as Go writes it on its line.
pub fn literal(v: &Value) -> String {
    match v {
        Value::Bytes(b) => format!("[]byte({})", quote(b)),
        Value::String(s) => format!("string({})", quote(s)),
        Value::Bool(b) => format!("bool({b})"),
        Value::Int(n) => format!("int({n})"),
        Value::Int8(n) => format!("int8({n})"),
        Value::Int16(n) => format!("int16({n})"),
        Value::Int32(n) => match char::from_u32(*n as u32).filter(|_| *n >= 0) {
            Some(c) => format!("rune({})", quote_rune(c)),
            None => format!("int32({n})"),
        },
        Value::Int64(n) => format!("int64({n})"),
        Value::Uint(n) => format!("uint({n})"),
        Value::Uint8(n) => format!(
            "byte({})",
            quote_rune(char::from_u32(*n as u32).expect("every byte is a code point"))
        ),
        Value::Uint16(n) => format!("uint16({n})"),
        Value::Uint32(n) => format!("uint32({n})"),
        Value::Uint64(n) => format!("uint64({n})"),
        Value::Float32(f) => {
            if f.is_nan() && f.to_bits() != gofloat::GO_NAN32 {
                format!("math.Float32frombits(0x{:x})", f.to_bits())
            } else {
                format!("float32({})", gofloat::format32(*f))
            }
        }
        Value::Float64(f) => {
            if f.is_nan() && f.to_bits() != gofloat::GO_NAN64 {
                format!("math.Float64frombits(0x{:x})", f.to_bits())
            } else {
                format!("float64({})", gofloat::format64(*f))
            }
        }
        Value::Custom { name, data } => {
            format!(
                "custom({}, []byte({}))",
                quote(name.as_bytes()),
                quote(data)
            )
        }
    }
}

/// Rendering for people lives beside the codec's own literals, so that
/// `value` needs nothing from the codec (the codec reads and writes values).
impl Value {
    /// A short, one-line, readable rendering for listings: the canonical
    /// literal, with long strings cut to `max` bytes and marked with `…`.
    pub fn preview(&self, max: usize) -> String {
        match self {
            Value::Bytes(b) | Value::String(b) | Value::Custom { data: b, .. } => {
                let cut = b.len() > max;
                let shown = if cut { &b[..max] } else { &b[..] };
                let mut s = quote(shown);
                if cut {
                    s.push('…');
                }
                if let Value::Custom { name, .. } = self {
                    s = format!("{name}:{s}");
                }
                s
            }
            other => literal(other),
        }
    }
}

/// Encodes values as a v1 file in Go's canonical form.
pub fn encode(values: &[Value]) -> Vec<u8> {
    let mut out = String::with_capacity(32 + values.len() * 16);
    out.push_str(HEADER);
    out.push('\n');
    for v in values {
        out.push_str(&literal(v));
        out.push('\n');
    }
    out.into_bytes()
}

/// Checks decoded values against the types a target takes, as Go does after
/// decoding: same count, same types (`byte` is `uint8`, `rune` is `int32`;
/// nothing else converts).
pub fn check_types(values: &[Value], want: &[ArgType]) -> Result<()> {
    if values.len() != want.len() {
        return Err(Error::Types {
            path: None,
            reason: format!(
                "wrong number of values in corpus entry: {}, want {}",
                values.len(),
                want.len()
            ),
        });
    }
    let got: Vec<ArgType> = values.iter().map(Value::arg_type).collect();
    if got != want {
        return Err(Error::Types {
            path: None,
            reason: format!(
                "mismatched types in corpus entry: [{}], want [{}]",
                ArgType::format_list(&got),
                ArgType::format_list(want)
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Vec<Value> {
        decode(s.as_bytes()).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn round_trips_every_byte_and_int8() {
        for b in 0..=255u8 {
            let v = vec![Value::Uint8(b), Value::Int8(b as i8), Value::Bytes(vec![b])];
            assert_eq!(dec(std::str::from_utf8(&encode(&v)).unwrap()), v);
        }
    }

    #[test]
    fn ints_and_their_limits() {
        assert_eq!(
            dec("go test fuzz v1\nint8(-128)\n"),
            vec![Value::Int8(-128)]
        );
        assert!(decode(b"go test fuzz v1\nint8(128)\n").is_err());
        assert!(decode(b"go test fuzz v1\nint8(-129)\n").is_err());
        assert_eq!(
            dec("go test fuzz v1\nuint64(0xffff_ffff_ffff_ffff)\n"),
            vec![Value::Uint64(u64::MAX)]
        );
        assert!(decode(b"go test fuzz v1\nuint16(-0)\n").is_err());
        assert_eq!(
            dec("go test fuzz v1\nint64(-0x10)\n"),
            vec![Value::Int64(-16)]
        );
        assert_eq!(dec("go test fuzz v1\nint64(017)\n"), vec![Value::Int64(15)]);
        assert_eq!(dec("go test fuzz v1\nrune(-1)\n"), vec![Value::Int32(-1)]);
        assert_eq!(
            dec("go test fuzz v1\nbyte('\\xff')\n"),
            vec![Value::Uint8(255)]
        );
        assert!(decode("go test fuzz v1\nbyte('☃')\n".as_bytes()).is_err());
    }

    #[test]
    fn custom_extension() {
        let v = vec![Value::Custom {
            name: "json".into(),
            data: b"{\"a\":1}".to_vec(),
        }];
        let enc = encode(&v);
        assert_eq!(
            std::str::from_utf8(&enc).unwrap(),
            "go test fuzz v1\ncustom(\"json\", []byte(\"{\\\"a\\\":1}\"))\n"
        );
        assert_eq!(decode(&enc).unwrap(), v);
        assert!(decode(b"go test fuzz v1\ncustom(\"\", []byte(\"\"))\n").is_err());
        assert!(decode(b"go test fuzz v1\ncustom(\"x\")\n").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let e = decode(b"go test fuzz v1\nint(1)\n\nint64(x)\n").unwrap_err();
        match e {
            Error::Codec { line, reason, .. } => {
                assert_eq!(line, 4);
                assert!(reason.contains("int64(x)"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn type_check() {
        let v = dec("go test fuzz v1\nstring(\"a\")\nint64(1)\n");
        assert!(check_types(&v, &[ArgType::String, ArgType::Int64]).is_ok());
        assert!(check_types(&v, &[ArgType::Int64, ArgType::String]).is_err());
        assert!(check_types(&v, &[ArgType::String]).is_err());
        let r = dec("go test fuzz v1\nint32(5)\n");
        assert!(check_types(&r, &["rune".parse().unwrap()]).is_ok());
    }
}
