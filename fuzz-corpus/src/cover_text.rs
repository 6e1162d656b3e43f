//! The text forms of `fuzz-corpus cover`'s report, for terminals and CI
//! logs: the listing (one line per function, least covered first, the
//! totals last) and `-lines FUNC` (that function's source, a marker per
//! line). Source lines are written as the file has them, bytes and all.

use crate::cover_report::{percent, totals, Function, Line, Mark, Report};
use crate::sources::Sources;
use crate::TOOL;
use fuzz_cli::CliError;
use std::io::Write;

/// The listing: least covered first, then by place, with the totals last.
pub fn print_listing(report: &Report) -> Result<(), CliError> {
    let mut order: Vec<&Function> = report.functions.iter().collect();
    order.sort_by(|a, b| {
        (a.covered * b.blocks)
            .cmp(&(b.covered * a.blocks))
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.name.cmp(&b.name))
    });
    let fraction = |f: &Function| format!("{}/{}", f.covered, f.blocks);
    let fw = order.iter().map(|f| fraction(f).len()).max().unwrap_or(0);
    let nw = order
        .iter()
        .map(|f| f.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    let mut out = std::io::BufWriter::new(fuzz_cli::io::stdout());
    for f in &order {
        let line = format!(
            "{:>fw$} {:>6}  {:<nw$}  {}",
            fraction(f),
            percent(f.covered, f.blocks),
            f.name,
            f.location()
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    let (cf, f, cb, b) = totals(&report.functions);
    writeln!(
        out,
        "covered: {cf}/{f} functions ({}), {cb}/{b} blocks ({})",
        percent(cf, f),
        percent(cb, b)
    )?;
    out.flush()?;
    Ok(())
}

/// `-lines`: each selected function's header, then its source from its
/// first line with code to its last, one line each: the line number, a
/// marker (`>` covered, `~` partly covered, `!` not reached, `.` code
/// that starts no block, blank for no code), the entries that reach it,
/// and the text. A source file that cannot be read is warned of once, and
/// its lines with code are shown by their blocks' addresses.
pub fn print_lines(r: &Report, selected: &[usize], sources: &mut Sources) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(fuzz_cli::io::stdout());
    let mut warned = std::collections::HashSet::new();
    for (n, &i) in selected.iter().enumerate() {
        let Some(f) = r.functions.get(i) else {
            continue;
        };
        if n > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", header(f))?;
        for (k, (file, lines)) in by_file(f).into_iter().enumerate() {
            if k > 0 {
                writeln!(out, "in {}:", sources.name(file))?;
            }
            let source = sources.get(file);
            if let Some(note) = &source.note {
                if warned.insert(file) {
                    fuzz_cli::exit::warn(TOOL, note);
                }
            }
            for row in rows(f, &lines, source) {
                out.write_all(&row)?;
                out.write_all(b"\n")?;
            }
        }
        if !f.unplaced.is_empty() {
            writeln!(out, "{}:", unplaced_title(f))?;
            for b in &f.unplaced {
                let mark = if b.hit {
                    Mark::Covered
                } else {
                    Mark::NotReached
                };
                writeln!(out, "  {} 0x{:x}", mark.symbol(), b.offset)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// What heads a function's blocks that no line holds: code the compiler
/// gave no line, or, when none of the function's blocks has one, a
/// function without debug information.
pub fn unplaced_title(f: &Function) -> &'static str {
    if f.lines.is_empty() {
        "Its blocks, by address (no debug information: build with -g for source lines)"
    } else {
        "Blocks the line table gives no line"
    }
}

/// A function's header line: name, place, blocks and entries.
pub fn header(f: &Function) -> String {
    format!(
        "{} {}: {}/{} blocks ({}), reached by {} {}",
        f.name,
        f.location(),
        f.covered,
        f.blocks,
        percent(f.covered, f.blocks),
        f.reached_by,
        if f.reached_by == 1 {
            "entry"
        } else {
            "entries"
        }
    )
}

/// A function's lines by source file, the function's own file (that of
/// its first line) first.
pub fn by_file(f: &Function) -> Vec<(usize, Vec<&Line>)> {
    let mut groups: Vec<(usize, Vec<&Line>)> = Vec::new();
    for l in &f.lines {
        match groups.iter_mut().find(|(file, _)| *file == l.file) {
            Some((_, ls)) => ls.push(l),
            None => groups.push((l.file, vec![l])),
        }
    }
    let own = f
        .lines
        .iter()
        .find(|l| Some(l.number) == f.line)
        .map(|l| l.file);
    groups.sort_by_key(|(file, _)| Some(*file) != own);
    groups
}

/// The rows of one file's lines: every line from the first with code to
/// the last when the source is there; only the lines with code when not.
fn rows(f: &Function, lines: &[&Line], source: &crate::sources::Source) -> Vec<Vec<u8>> {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return Vec::new();
    };
    let nw = last.number.to_string().len();
    let cw = lines
        .iter()
        .filter_map(|l| f.line_entries(l))
        .max()
        .unwrap_or(0)
        .to_string()
        .len();
    let numbers: Vec<u32> = if source.lines.is_some() {
        (first.number..=last.number).collect()
    } else {
        lines.iter().map(|l| l.number).collect()
    };
    let mut at = lines.iter().peekable();
    numbers
        .into_iter()
        .map(|number| {
            let line = at.next_if(|l| l.number == number).copied();
            let (mark, count) = match line {
                Some(l) => (
                    f.mark(l).symbol(),
                    f.line_entries(l).map(|c| c.to_string()).unwrap_or_default(),
                ),
                None => (' ', String::new()),
            };
            let mut row = format!("{number:>nw$} {mark} {count:>cw$} | ").into_bytes();
            match (source.line(number), line) {
                (Some(text), _) => row.extend_from_slice(text),
                (None, Some(l)) => row.extend_from_slice(addresses(l).as_bytes()),
                (None, None) => {}
            }
            row
        })
        .collect()
}

/// The addresses of the blocks that start on a line, for a line whose
/// source is not at hand: `0x11d5 0x1205`, or `(code)` when none starts
/// there.
pub fn addresses(l: &Line) -> String {
    if l.blocks.is_empty() {
        return "(code)".to_string();
    }
    l.blocks
        .iter()
        .map(|b| format!("0x{:x}", b.offset))
        .collect::<Vec<_>>()
        .join(" ")
}
