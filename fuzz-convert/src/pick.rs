//! Which bytes of a decoded entry `to-raw` and `export` write out: the one
//! `[]byte`, `string` or `custom` argument, or the one `-arg N` names. Every
//! refusal is a message naming the file (and the value's line, where there
//! is one), so both subcommands fail alike.

use fuzz_core::{ArgType, Value};

/// The raw bytes of the argument to extract from the entry `values`,
/// decoded from `file` (whose `name` the messages use).
pub fn raw_bytes<'a>(
    name: &str,
    file: &[u8],
    values: &'a [Value],
    arg: Option<usize>,
) -> Result<&'a [u8], String> {
    let n = values.len();
    let index = match (arg, n) {
        (_, 0) => {
            return Err(format!(
                "{name}: entry has no arguments: nothing to extract"
            ))
        }
        (None, 1) => 0,
        (None, _) => {
            return Err(format!(
                "{name}: entry has {n} arguments ({}): pick one with -arg N",
                types(values)
            ))
        }
        (Some(i), _) if i >= n => {
            return Err(format!(
                "{name}: -arg {i} is out of range: entry has {} ({}), counted from 0",
                crate::count(n, "argument", "arguments"),
                types(values)
            ))
        }
        (Some(i), _) => i,
    };
    let value = &values[index];
    value.as_bytes().ok_or_else(|| {
        let at = match value_line(file, index) {
            Some(line) => format!("{name}:{line}"),
            None => name.to_string(),
        };
        let which = if n == 1 {
            "the entry's value".to_string()
        } else {
            format!("argument {index}")
        };
        format!(
            "{at}: {which} is {}, not []byte or string: it has no raw bytes",
            type_name(&value.arg_type())
        )
    })
}

/// A type as a person reads it in a corpus file.
fn type_name(t: &ArgType) -> String {
    match t {
        ArgType::Custom(name) => format!("custom({name})"),
        other => other.name().to_string(),
    }
}

fn types(values: &[Value]) -> String {
    let names: Vec<String> = values.iter().map(|v| type_name(&v.arg_type())).collect();
    names.join(", ")
}

/// The line (from 1) that holds value `index` of a file that decoded: the
/// reader skips blank lines, so count only the others after the header.
fn value_line(file: &[u8], index: usize) -> Option<usize> {
    file.split(|&b| b == b'\n')
        .enumerate()
        .skip(1)
        .filter(|(_, line)| !String::from_utf8_lossy(line).trim().is_empty())
        .nth(index)
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_skip_blanks() {
        let f = b"go test fuzz v1\n\nint(1)\n  \n[]byte(\"x\")\n";
        assert_eq!(value_line(f, 0), Some(3));
        assert_eq!(value_line(f, 1), Some(5));
        assert_eq!(value_line(f, 2), None);
    }

    #[test]
    fn picks_and_refuses() {
        let one = [Value::Bytes(b"BUG".to_vec())];
        assert_eq!(raw_bytes("f", b"", &one, None).unwrap(), b"BUG");
        assert_eq!(raw_bytes("f", b"", &one, Some(0)).unwrap(), b"BUG");
        assert!(raw_bytes("f", b"", &one, Some(1))
            .unwrap_err()
            .contains("out of range"));
        let three = [
            Value::String(b"s".to_vec()),
            Value::Int64(5),
            Value::Custom {
                name: "tree".into(),
                data: b"t".to_vec(),
            },
        ];
        let e = raw_bytes("x.v1", b"", &three, None).unwrap_err();
        assert_eq!(
            e,
            "x.v1: entry has 3 arguments (string, int64, custom(tree)): pick one with -arg N"
        );
        let file = b"go test fuzz v1\nstring(\"s\")\nint64(5)\ncustom(\"tree\", []byte(\"t\"))\n";
        let e = raw_bytes("x.v1", file, &three, Some(1)).unwrap_err();
        assert_eq!(
            e,
            "x.v1:3: argument 1 is int64, not []byte or string: it has no raw bytes"
        );
        assert_eq!(raw_bytes("x.v1", file, &three, Some(2)).unwrap(), b"t");
        assert!(raw_bytes("x", b"", &[], None)
            .unwrap_err()
            .contains("no arguments"));
    }
}
