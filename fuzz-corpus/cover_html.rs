//! The HTML form of `fuzz-corpus cover`'s report: one self-contained page
//! (inline CSS, no script, nothing fetched) with the totals at the top and
//! the functions grouped by source file, or by name prefix when the library
//! has no debug information. Each function has a bar of its covered blocks;
//! a function not reached at all, one partly covered and one fully covered
//! differ in colour and mark. The page is the same for the same report
//! (no timestamps), so two reports compare with diff.

use crate::cover::{percent, totals, Function, Report};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Escapes text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// How much of something is covered: a CSS class.
fn state(covered: usize, total: usize) -> &'static str {
    if covered == 0 {
        "none"
    } else if covered < total {
        "part"
    } else {
        "full"
    }
}

/// A bar whose green part is the covered share.
fn bar(covered: usize, total: usize, unit: &str) -> String {
    let width = if total == 0 {
        0.0
    } else {
        covered as f64 * 100.0 / total as f64
    };
    format!(
        "<span class=\"bar\" title=\"{covered} of {total} {unit}\">\
         <span class=\"fill\" style=\"width:{width:.1}%\"></span></span>"
    )
}

/// The group of a function without a source file: the part of its name
/// before the last `::` outside brackets (Rust, C++), else before its first
/// `_` (C's `prefix_name` convention).
pub fn name_prefix(name: &str) -> String {
    if name.starts_with("0x") {
        return "(unnamed)".to_string();
    }
    let mut depth = 0i32;
    let mut last = None;
    let bytes = name.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' | b')' | b']' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => last = Some(i),
            _ => {}
        }
    }
    if let Some(i) = last {
        if i > 0 {
            return name[..i].to_string();
        }
    }
    match name.find('_') {
        Some(i) if i > 0 => format!("{}*", &name[..=i]),
        _ => "(other)".to_string(),
    }
}

/// The functions by group, each group's in order of place: source files
/// below the current directory (the project's own, shown relative) first,
/// then other files (toolchain, dependencies), then functions without a
/// file, by name prefix. The key: (by prefix, absolute path, file or prefix).
type Groups<'a> = BTreeMap<(bool, bool, String), Vec<&'a Function>>;

fn groups(r: &Report) -> Groups<'_> {
    let mut groups: Groups = BTreeMap::new();
    for f in &r.functions {
        let key = match &f.file {
            Some(file) => (false, file.starts_with('/'), file.clone()),
            None => (true, false, name_prefix(&f.name)),
        };
        groups.entry(key).or_default().push(f);
    }
    for fs in groups.values_mut() {
        fs.sort_by(|a, b| {
            a.line
                .cmp(&b.line)
                .then_with(|| a.name.cmp(&b.name))
                .then(a.offset.cmp(&b.offset))
        });
    }
    groups
}

/// The page.
pub fn render(r: &Report) -> String {
    let groups = groups(r);
    let (cf, nf, cb, nb) = totals(&r.functions);
    let mut h = String::with_capacity(4096 + r.functions.len() * 400);
    header(&mut h, r);
    if r.functions.is_empty() {
        h.push_str("<p>The library has no instrumented functions.</p>\n");
    }
    for ((by_prefix, _, key), fs) in &groups {
        group(&mut h, *by_prefix, key, fs);
    }
    let _ = write!(
        h,
        "</main>\n<footer>fuzz-corpus cover &middot; {} &middot; \
         {cf}/{nf} functions, {cb}/{nb} blocks</footer>\n</body>\n</html>\n",
        esc(&r.library)
    );
    h
}

/// The head of the page: title, what ran, the two totals as cards, the
/// legend.
fn header(h: &mut String, r: &Report) {
    let (cf, nf, cb, nb) = totals(&r.functions);
    let title = format!("Coverage of {}", r.library);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <input type=\"checkbox\" id=\"hidefull\" class=\"toggle\">\n<header>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title)
    );
    let corpus = r
        .corpus
        .iter()
        .map(|c| format!("<code>{}</code>", esc(c)))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(
        h,
        "<p class=\"meta\">target <code>{}</code> &middot; corpus {corpus} &middot; \
         {} {} run{}</p>",
        esc(&r.target),
        r.entries,
        if r.entries == 1 { "entry" } else { "entries" },
        if r.skipped > 0 {
            format!(
                ", <span class=\"warn\">{} skipped (crashed or hung)</span>",
                r.skipped
            )
        } else {
            String::new()
        }
    );
    h.push_str("<div class=\"cards\">\n");
    for (unit, what, c, n) in [
        ("functions", "functions reached", cf, nf),
        ("blocks", "blocks covered", cb, nb),
    ] {
        let _ = writeln!(
            h,
            "<div class=\"card {}\"><div class=\"big\">{}</div>\
             <div>{c} of {n} {what}</div>{}</div>",
            state(c, n),
            percent(c, n),
            bar(c, n, unit)
        );
    }
    h.push_str("</div>\n");
    h.push_str(
        "<p class=\"legend\"><span class=\"mark none\"></span> not reached \
         <span class=\"mark part\"></span> partly covered \
         <span class=\"mark full\"></span> fully covered \
         <label for=\"hidefull\">hide fully covered functions</label></p>\n</header>\n<main>\n",
    );
}

/// One group (a source file or a name prefix): a summary line with its
/// totals, opened when it is partly covered, over a table of its functions.
fn group(h: &mut String, by_prefix: bool, key: &str, fs: &[&Function]) {
    let (gcf, gnf, gcb, gnb) = totals(fs.iter().copied());
    let open = if gcb > 0 && gcb < gnb { " open" } else { "" };
    let label = if by_prefix {
        format!("<span class=\"gname prefix\">{}</span>", esc(key))
    } else {
        format!("<span class=\"gname\">{}</span>", esc(key))
    };
    let _ = writeln!(
        h,
        "<details class=\"group {}\"{open}>\n<summary>{label}{}<span class=\"num\">{}</span>\
         <span class=\"num wide\">{gcf}/{gnf} functions, {gcb}/{gnb} blocks</span></summary>",
        state(gcb, gnb),
        bar(gcb, gnb, "blocks"),
        percent(gcb, gnb),
    );
    let _ = writeln!(
        h,
        "<table>\n<thead><tr><th></th><th>function</th><th>{}</th><th>blocks</th><th></th>\
         <th class=\"num\">%</th>\
         <th class=\"num\" title=\"corpus entries that reach the function\">entries</th>\
         </tr></thead>\n<tbody>",
        if by_prefix { "address" } else { "line" }
    );
    for f in fs {
        let st = state(f.covered, f.blocks);
        let mark = match st {
            "none" => "&#x2717;",
            "part" => "&#x25D0;",
            _ => "&#x2713;",
        };
        let place = match (by_prefix, f.line) {
            (false, Some(l)) => l.to_string(),
            (false, None) => String::new(),
            (true, _) => format!("0x{:x}", f.offset),
        };
        let _ = writeln!(
            h,
            "<tr class=\"{st}\"><td class=\"mark-cell\">{mark}</td><td class=\"name\">{}</td>\
             <td class=\"num place\">{place}</td><td class=\"num\">{}/{}</td><td>{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&f.name),
            f.covered,
            f.blocks,
            bar(f.covered, f.blocks, "blocks"),
            percent(f.covered, f.blocks),
            f.reached_by
        );
    }
    h.push_str("</tbody>\n</table>\n</details>\n");
}

const STYLE: &str = r#"
:root { --bg:#fff; --fg:#1f2328; --muted:#656d76; --line:#d0d7de; --card:#f6f8fa;
  --none:#cf222e; --none-bg:#ffebe9; --part:#bf8700; --part-bg:#fff8c5; --full:#1a7f37; --full-bg:#dafbe1;
  --track:#f3c4c4; --fill:#2da44e; }
@media (prefers-color-scheme: dark) {
  :root { --bg:#0d1117; --fg:#e6edf3; --muted:#8d96a0; --line:#30363d; --card:#161b22;
    --none:#ff7b72; --none-bg:#3c1618; --part:#d29922; --part-bg:#3a2e12; --full:#3fb950; --full-bg:#12301c;
    --track:#5c2426; --fill:#2ea043; } }
* { box-sizing: border-box; }
body { margin:0; padding:1.5rem 2rem 3rem; background:var(--bg); color:var(--fg);
  font:14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size:1.5rem; margin:0 0 .25rem; }
code, .name, .gname, .num { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size:13px; }
.meta { color:var(--muted); margin:0 0 1rem; }
.warn { color:var(--none); }
.cards { display:flex; gap:1rem; flex-wrap:wrap; margin-bottom:.75rem; }
.card { background:var(--card); border:1px solid var(--line); border-left:6px solid var(--line);
  border-radius:6px; padding:.75rem 1rem; min-width:16rem; }
.card.none { border-left-color:var(--none); } .card.part { border-left-color:var(--part); } .card.full { border-left-color:var(--full); }
.card .big { font-size:2rem; font-weight:600; }
.card .bar { width:100%; height:10px; margin-top:.4rem; }
.legend { color:var(--muted); display:flex; align-items:center; gap:.4rem; flex-wrap:wrap; }
.legend label { margin-left:1.5rem; cursor:pointer; border:1px solid var(--line); border-radius:4px; padding:.1rem .5rem; user-select:none; }
.mark { display:inline-block; width:.8rem; height:.8rem; border-radius:2px; margin-left:.6rem; }
.mark.none { background:var(--none); } .mark.part { background:var(--part); } .mark.full { background:var(--full); }
.toggle { position:absolute; opacity:0; pointer-events:none; }
.toggle:checked ~ header .legend label { background:var(--card); border-color:var(--fg); }
.toggle:checked ~ header .legend label::before { content:"\2713  "; }
.toggle:checked ~ main tr.full, .toggle:checked ~ main details.group.full { display:none; }
.bar { display:inline-block; width:10rem; height:8px; border-radius:4px; background:var(--track); overflow:hidden; vertical-align:middle; }
.bar .fill { display:block; height:100%; background:var(--fill); }
details.group { border:1px solid var(--line); border-left:6px solid var(--line); border-radius:6px; margin:.5rem 0; background:var(--bg); }
details.group.none { border-left-color:var(--none); } details.group.part { border-left-color:var(--part); } details.group.full { border-left-color:var(--full); }
summary { cursor:pointer; padding:.45rem .75rem; display:flex; align-items:center; gap:1rem; background:var(--card); border-radius:4px; }
summary .gname { flex:1; font-weight:600; word-break:break-all; }
summary .gname.prefix::before { content:"name prefix  "; font-weight:400; color:var(--muted); font-family:system-ui, sans-serif; }
summary .num { color:var(--muted); white-space:nowrap; }
summary .num.wide { min-width:15rem; text-align:right; }
table { border-collapse:collapse; width:100%; }
th { text-align:left; font-weight:500; color:var(--muted); border-bottom:1px solid var(--line); padding:.3rem .6rem; }
td { padding:.2rem .6rem; border-top:1px solid var(--line); vertical-align:middle; }
td.name { word-break:break-all; width:55%; }
.num { text-align:right; white-space:nowrap; }
td.mark-cell { width:1.5rem; text-align:center; font-weight:700; }
tr.none td.mark-cell, tr.none td.name { color:var(--none); } tr.none { background:var(--none-bg); }
tr.part td.mark-cell { color:var(--part); } tr.part { background:var(--part-bg); }
tr.full td.mark-cell { color:var(--full); }
footer { margin-top:2rem; color:var(--muted); font-size:12px; }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(name_prefix("mycrate::parse::record"), "mycrate::parse");
        assert_eq!(
            name_prefix("core::ptr::drop_in_place<alloc::vec::Vec<u8>>"),
            "core::ptr"
        );
        assert_eq!(
            name_prefix("<mycrate::Foo as core::fmt::Debug>::fmt"),
            "<mycrate::Foo as core::fmt::Debug>"
        );
        assert_eq!(name_prefix("parse_record"), "parse_*");
        assert_eq!(name_prefix("LLVMFuzzerTestOneInput"), "(other)");
        assert_eq!(name_prefix("_start"), "(other)");
        assert_eq!(name_prefix("0x1150"), "(unnamed)");
    }

    #[test]
    fn escapes() {
        assert_eq!(esc("a<b>&\"c\"'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;");
    }
}
