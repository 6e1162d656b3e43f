//! Floating-point text as Go reads and writes it in corpus files:
//! `strconv.ParseFloat` on the literal text Go's parser hands it, and
//! `%v` (`strconv.FormatFloat(x, 'g', -1, size)`) for writing.
//!
//! Rust's own parser and shortest formatter are correctly rounded, as Go's
//! are; what differs is the syntax around them (hex floats, `_`, Go's cap
//! on exponent digits, the `e+06` form), which is handled here.

/// Go's NaN (`math.NaN()`), which `float64(NaN)` reads as.
pub const GO_NAN64: u64 = 0x7ff8_0000_0000_0001;
/// `float32(math.NaN())`.
pub const GO_NAN32: u32 = 0x7fc0_0000;

/// Why a float literal was refused, in `strconv`'s words.
#[derive(Debug, PartialEq, Eq)]
pub enum FloatError {
    Syntax,
    Range,
}

struct Layout {
    mantbits: u32,
    expbits: u32,
    bias: i32,
}

const F64: Layout = Layout {
    mantbits: 52,
    expbits: 11,
    bias: -1023,
};
const F32: Layout = Layout {
    mantbits: 23,
    expbits: 8,
    bias: -127,
};

/// `strconv.underscoreOK`: underscores only between digits (a base prefix
/// counts as a digit).
pub fn underscore_ok(s: &str) -> bool {
    let s = s.as_bytes();
    let s = match s.first() {
        Some(b'-') | Some(b'+') => &s[1..],
        _ => s,
    };
    let mut saw = b'^';
    let mut i = 0;
    let mut hex = false;
    if s.len() >= 2 && s[0] == b'0' && matches!(s[1] | 0x20, b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = s[1] | 0x20 == b'x';
    }
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() || (hex && (c | 0x20).is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `strconv.ParseFloat(s, 64)` (or 32 when `single`), for the texts Go's
/// corpus reader passes it: `NaN`, `+Inf`, `-Inf`, or a Go number literal
/// with an optional leading `-`. The result of a 32-bit parse is exactly
/// representable as `f32`.
// It follows Go's `readFloat` (strconv/atof.go) step by step, so that it
// can be checked against it line by line; split up, it would not be.
#[allow(clippy::too_many_lines)]
pub fn parse(s: &str, single: bool) -> Result<f64, FloatError> {
    match s {
        "NaN" => {
            return Ok(if single {
                f32::from_bits(GO_NAN32) as f64
            } else {
                f64::from_bits(GO_NAN64)
            })
        }
        "+Inf" => return Ok(f64::INFINITY),
        "-Inf" => return Ok(f64::NEG_INFINITY),
        _ => {}
    }
    let b = s.as_bytes();
    let mut i = 0;
    let mut neg = false;
    match b.first() {
        None => return Err(FloatError::Syntax),
        Some(b'+') => i += 1,
        Some(b'-') => {
            neg = true;
            i += 1
        }
        _ => {}
    }
    let hex = i + 2 < b.len() && b[i] == b'0' && b[i + 1] | 0x20 == b'x';
    if hex {
        i += 2;
    }
    let mut underscores = false;
    let mut saw_dot = false;
    let mut saw_digits = false;
    // Decimal: the significant digits, and where the point sits among them.
    let mut digits = String::new();
    let mut nd: i64 = 0; // digits seen, leading zeros excluded
    let mut dp: i64 = 0; // decimal point position
                         // Hex: mantissa of at most 16 digits, and whether more non-zero ones
                         // were cut.
    let mut mant: u64 = 0;
    let mut nd_mant: i64 = 0;
    let mut trunc = false;
    while i < b.len() {
        let c = b[i];
        let val = if c.is_ascii_digit() {
            Some((c - b'0') as u64)
        } else if hex && (c | 0x20).is_ascii_hexdigit() && c.is_ascii_alphabetic() {
            Some(((c | 0x20) - b'a' + 10) as u64)
        } else {
            None
        };
        if c == b'_' {
            underscores = true;
        } else if c == b'.' {
            if saw_dot {
                break;
            }
            saw_dot = true;
            dp = nd;
        } else if let Some(v) = val {
            saw_digits = true;
            if v == 0 && nd == 0 {
                dp -= 1;
            } else {
                nd += 1;
                if hex {
                    if nd_mant < 16 {
                        mant = mant * 16 + v;
                        nd_mant += 1;
                    } else if v != 0 {
                        trunc = true;
                    }
                } else {
                    digits.push(c as char);
                }
            }
        } else {
            break;
        }
        i += 1;
    }
    if !saw_digits {
        return Err(FloatError::Syntax);
    }
    if !saw_dot {
        dp = nd;
    }
    if hex {
        dp *= 4;
        nd_mant *= 4;
    }
    let exp_char = if hex { b'p' } else { b'e' };
    if i < b.len() && b[i] | 0x20 == exp_char {
        i += 1;
        if i >= b.len() {
            return Err(FloatError::Syntax);
        }
        let mut esign = 1;
        if b[i] == b'+' {
            i += 1;
        } else if b[i] == b'-' {
            i += 1;
            esign = -1;
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return Err(FloatError::Syntax);
        }
        let mut e: i64 = 0;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            if b[i] == b'_' {
                underscores = true;
            } else if e < 10000 {
                // Go stops counting here; so do we, to agree on absurd input.
                e = e * 10 + (b[i] - b'0') as i64;
            }
            i += 1;
        }
        dp += e * esign;
    } else if hex {
        // A hex mantissa must have a 'p' exponent.
        return Err(FloatError::Syntax);
    }
    if underscores && !underscore_ok(&s[..i]) {
        return Err(FloatError::Syntax);
    }
    if i != b.len() {
        return Err(FloatError::Syntax);
    }
    if hex {
        let exp = if mant != 0 { dp - nd_mant } else { 0 };
        return hex_value(mant, exp, neg, trunc, if single { &F32 } else { &F64 });
    }
    // Decimal: digits × 10^(dp - nd), which Rust rounds correctly.
    let text = if digits.is_empty() {
        "0".to_string()
    } else {
        format!("{}{}e{}", if neg { "-" } else { "" }, digits, dp - nd)
    };
    let v = if single {
        text.parse::<f32>().map(|f| f as f64)
    } else {
        text.parse::<f64>()
    }
    .map_err(|_| FloatError::Syntax)?;
    let v = if digits.is_empty() && neg { -0.0 } else { v };
    if v.is_infinite() {
        return Err(FloatError::Range);
    }
    Ok(v)
}

/// Go's `atofHex`: rounds mantissa × 2^exp to the layout, half to even.
fn hex_value(
    mut mantissa: u64,
    mut exp: i64,
    neg: bool,
    trunc: bool,
    flt: &Layout,
) -> Result<f64, FloatError> {
    let mb = flt.mantbits;
    let max_exp = (1i64 << flt.expbits) + flt.bias as i64 - 2;
    let min_exp = flt.bias as i64 + 1;
    exp += mb as i64;
    while mantissa != 0 && mantissa >> (mb + 2) == 0 {
        mantissa <<= 1;
        exp -= 1;
    }
    if trunc {
        mantissa |= 1;
    }
    while mantissa >> (1 + mb + 2) != 0 {
        mantissa = (mantissa >> 1) | (mantissa & 1);
        exp += 1;
    }
    while mantissa > 1 && exp < min_exp - 2 {
        mantissa = (mantissa >> 1) | (mantissa & 1);
        exp += 1;
    }
    let mut round = mantissa & 3;
    mantissa >>= 2;
    round |= mantissa & 1;
    exp += 2;
    if round == 3 {
        mantissa += 1;
        if mantissa == 1 << (1 + mb) {
            mantissa >>= 1;
            exp += 1;
        }
    }
    if mantissa >> mb == 0 {
        exp = flt.bias as i64;
    }
    let mut err = None;
    if exp > max_exp {
        mantissa = 1 << mb;
        exp = max_exp + 1;
        err = Some(FloatError::Range);
    }
    let mut bits = mantissa & ((1u64 << mb) - 1);
    bits |= (((exp - flt.bias as i64) as u64) & ((1u64 << flt.expbits) - 1)) << mb;
    if neg {
        bits |= 1u64 << mb << flt.expbits;
    }
    if let Some(e) = err {
        return Err(e);
    }
    Ok(if mb == 23 {
        f32::from_bits(bits as u32) as f64
    } else {
        f64::from_bits(bits)
    })
}

/// Go's `%v` of a float64.
pub fn format64(v: f64) -> String {
    format_g(v.is_nan(), v.is_infinite(), v < 0.0, &format!("{v:e}"))
}

/// Go's `%v` of a float32 (shortest digits at 32-bit precision).
pub fn format32(v: f32) -> String {
    format_g(v.is_nan(), v.is_infinite(), v < 0.0, &format!("{v:e}"))
}

/// Lays out Rust's shortest `{:e}` digits the way Go's `'g'` format with
/// shortest precision does: `%e` when the decimal exponent is < -4 or >= 6
/// (exponent signed, at least two digits), else `%f` without trailing zeros.
fn format_g(nan: bool, inf: bool, negative: bool, sci: &str) -> String {
    if nan {
        return "NaN".into();
    }
    if inf {
        return if negative { "-Inf" } else { "+Inf" }.into();
    }
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci),
    };
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("{:e} exponent is a number");
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if digits == "0" {
        out.push('0');
        return out;
    }
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(&digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_go() {
        let cases: &[(f64, &str)] = &[
            (100000.0, "100000"),
            (123456.0, "123456"),
            (1e6, "1e+06"),
            (1.5e6, "1.5e+06"),
            (1.234567e6, "1.234567e+06"),
            (1.23456789e8, "1.23456789e+08"),
            (1e20, "1e+20"),
            (1e21, "1e+21"),
            (0.0001, "0.0001"),
            (1e-5, "1e-05"),
            (1e-7, "1e-07"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-101.0, "-101"),
            (-50.5, "-50.5"),
            (1.5, "1.5"),
            (0.0, "0"),
            (-0.0, "-0"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
        ];
        for (v, want) in cases {
            assert_eq!(format64(*v), *want, "{v:e}");
        }
        assert_eq!(format32(0.1), "0.1");
        assert_eq!(format32(1e10), "1e+10");
        assert_eq!(format32(16777216.0), "1.6777216e+07");
    }

    #[test]
    fn parses_as_go() {
        assert_eq!(parse("0x1p-2", false), Ok(0.25));
        assert_eq!(parse("1_000.5", false), Ok(1000.5));
        assert_eq!(parse("017", false), Ok(17.0));
        assert_eq!(parse("0_17", false), Ok(17.0));
        assert_eq!(parse("0x10", false), Err(FloatError::Syntax));
        assert_eq!(parse("0o17", false), Err(FloatError::Syntax));
        assert_eq!(parse("0b1", false), Err(FloatError::Syntax));
        assert_eq!(parse("1e400", false), Err(FloatError::Range));
        assert_eq!(parse("1e39", true), Err(FloatError::Range));
        assert_eq!(parse("1e-400", false), Ok(0.0));
        assert_eq!(parse("-0.0", false).unwrap().to_bits(), (-0.0f64).to_bits());
        assert_eq!(
            parse("-0x0p0", false).unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(parse("0.1", true), Ok(0.1f32 as f64));
        assert_eq!(parse("NaN", false).unwrap().to_bits(), GO_NAN64);
        assert_eq!((parse("NaN", true).unwrap() as f32).to_bits(), GO_NAN32);
        assert_eq!(
            parse("0x1.fffffffffffff8p1023", false),
            Err(FloatError::Range)
        );
        assert_eq!(parse("0x1p-1074", false), Ok(5e-324));
        assert_eq!(parse("0x1p-1075", false), Ok(0.0));
        assert_eq!(parse("0x1.8p-1074", false), Ok(1e-323));
    }
}
