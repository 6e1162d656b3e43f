//! The HTML form of `fuzz-corpus cover`'s report: one self-contained page
//! (inline CSS, no script, nothing fetched) with the totals at the top and
//! the functions grouped by source file, or by name prefix when the library
//! has no debug information. Each function has a bar of its covered blocks;
//! a function not reached at all, one partly covered and one fully covered
//! differ in colour and mark. The page is the same for the same report
//! (no timestamps), so two reports compare with diff.

use crate::cover_diff::Old;
use crate::cover_report::{percent, totals, Function, Line, Mark, Report};
use crate::cover_text::{addresses, by_file};
use crate::sources::Sources;
use std::collections::{BTreeMap, HashMap};
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
/// Each function with its place in the report, which the page's ids use
/// (`f3`, its lines `f3-L42`).
type Groups<'a> = BTreeMap<(bool, bool, String), Vec<(usize, &'a Function)>>;

fn groups(r: &Report) -> Groups<'_> {
    let mut groups: Groups = BTreeMap::new();
    for (i, f) in r.functions.iter().enumerate() {
        let key = match &f.file {
            Some(file) => (false, file.starts_with('/'), file.clone()),
            None => (true, false, name_prefix(&f.name)),
        };
        groups.entry(key).or_default().push((i, f));
    }
    for fs in groups.values_mut() {
        fs.sort_by(|(_, a), (_, b)| {
            a.line
                .cmp(&b.line)
                .then_with(|| a.name.cmp(&b.name))
                .then(a.offset.cmp(&b.offset))
        });
    }
    groups
}

/// The page; with `old` (-diff), what the corpus gained and lost
/// against OLD too.
pub fn render(r: &Report, sources: &mut Sources, old: Option<&Old>) -> String {
    let groups = groups(r);
    let (cf, nf, cb, nb) = totals(&r.functions);
    let stops = stops(&groups);
    let mut h = String::with_capacity(4096 + r.functions.len() * 2000);
    header(&mut h, r, &stops);
    if let Some(old) = old {
        diff_section(&mut h, r, old, &groups);
    }
    if r.functions.is_empty() {
        h.push_str("<p>The library has no instrumented functions.</p>\n");
    }
    let next = stops
        .iter()
        .zip(stops.iter().cycle().skip(1))
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let mut page = Page {
        h,
        next,
        sources,
        old,
    };
    for ((by_prefix, _, key), fs) in &groups {
        group(&mut page, *by_prefix, key, fs);
    }
    let mut h = page.h;
    let _ = write!(
        h,
        "</main>\n<footer>fuzz-corpus cover &middot; {} &middot; \
         {cf}/{nf} functions, {cb}/{nb} blocks</footer>\n</body>\n</html>\n",
        esc(&r.library)
    );
    h
}

/// The page being written, and what its parts refer to.
struct Page<'a, 'b> {
    h: String,
    /// Where each gap starts, in page order, as their element ids, and
    /// the next one of each.
    next: HashMap<&'a str, &'a str>,
    sources: &'a mut Sources<'b>,
    old: Option<&'a Old<'a>>,
}

/// -diff's part of the page: the totals against OLD, then each function
/// that gained or lost blocks, linked to its source, where the lines
/// that changed are marked + and &minus;.
fn diff_section(h: &mut String, r: &Report, old: &Old, groups: &Groups) {
    let mut rows = String::new();
    let (mut before, mut gained, mut lost, mut total) = (0, 0, 0, 0);
    for fs in groups.values() {
        for &(i, f) in fs {
            let (b, g, l) = old.function(f);
            before += b;
            gained += g;
            lost += l;
            total += f.blocks;
            if g + l > 0 {
                let _ = writeln!(
                    rows,
                    "<tr><td class=\"chg\">{}{}</td><td><a href=\"#f{i}\">{}</a></td>\
                     <td class=\"num\">{b}/{n} &rarr; {}/{n}</td></tr>",
                    if g > 0 {
                        format!("+{g} ")
                    } else {
                        String::new()
                    },
                    if l > 0 {
                        format!("&minus;{l}")
                    } else {
                        String::new()
                    },
                    esc(&f.name),
                    f.covered,
                    n = f.blocks
                );
            }
        }
    }
    let after: usize = r.functions.iter().map(|f| f.covered).sum();
    let _ = writeln!(
        h,
        "<section class=\"diff\"><h2>Against <code>{}</code></h2>\n\
         <p>blocks {before}/{total} &rarr; {after}/{total}: +{gained} gained, &minus;{lost} lost\
         {}</p>",
        esc(&old.name),
        if rows.is_empty() {
            "; no function changed"
        } else {
            "; the lines where a gained (+) or lost (&minus;) block starts are marked in each \
             function"
        }
    );
    if !rows.is_empty() {
        let _ = writeln!(h, "<table class=\"diff\">\n{rows}</table>");
    }
    h.push_str("</section>\n");
}

/// The element id of a function's line: `f3-L42` for a line of the
/// function's own file, `f3-F2-L42` for another file's.
fn line_id(func: usize, own_file: bool, l: &Line) -> String {
    if own_file {
        format!("f{func}-L{}", l.number)
    } else {
        format!("f{func}-F{}-L{}", l.file, l.number)
    }
}

/// Where each gap starts, in the order the page shows them: the first
/// line of each run of lines with code that are not reached or partly
/// covered (a run ends at a line with code that is covered or whose
/// counts do not tell), the targets of its "next" links. A gap of ten
/// lines is one stop, not ten.
fn stops(groups: &Groups) -> Vec<String> {
    let mut out = Vec::new();
    for fs in groups.values() {
        for &(i, f) in fs {
            for (k, (_, lines)) in by_file(f).into_iter().enumerate() {
                let mut in_gap = false;
                for l in lines {
                    let gap = matches!(f.mark(l), Mark::NotReached | Mark::Partly);
                    if gap && !in_gap {
                        out.push(line_id(i, k == 0, l));
                    }
                    in_gap = gap;
                }
            }
        }
    }
    out
}

/// The head of the page: title, what ran, the two totals as cards, the
/// legend.
fn header(h: &mut String, r: &Report, stops: &[String]) {
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
            // Every function reached is not green while blocks are not.
            if unit == "functions" && c == n && cb < nb {
                "part"
            } else {
                state(c, n)
            },
            percent(c, n),
            bar(c, n, unit)
        );
    }
    h.push_str("</div>\n");
    h.push_str(
        "<p class=\"legend\">\
         <span class=\"item\"><span class=\"mark none\"></span> not reached</span> \
         <span class=\"item\"><span class=\"mark part\"></span> partly covered</span> \
         <span class=\"item\"><span class=\"mark full\"></span> fully covered</span> \
         <span class=\"item\"><span class=\"dot\">&middot;</span> code the counts do not tell \
         of</span> <label for=\"hidefull\">hide fully covered functions</label></p>\n",
    );
    match stops.first() {
        Some(first) => {
            let _ = writeln!(
                h,
                "<p class=\"stops\">{} {} of lines not fully covered: open a function for its \
                 source, or <a href=\"#{first}\">go to the first</a> and follow the &darr; \
                 links.</p>",
                stops.len(),
                if stops.len() == 1 { "run" } else { "runs" }
            );
        }
        None if r.functions.iter().any(|f| !f.lines.is_empty()) => {
            h.push_str("<p class=\"stops\">Every line with code is covered.</p>\n");
        }
        None => {}
    }
    h.push_str("</header>\n<main>\n");
}

/// One group (a source file or a name prefix): a summary line with its
/// totals, opened when it is partly covered, over its functions, each of
/// which opens to its source.
fn group(p: &mut Page, by_prefix: bool, key: &str, fs: &[(usize, &Function)]) {
    let (gcf, gnf, gcb, gnb) = totals(fs.iter().map(|&(_, f)| f));
    let open = if gcb > 0 && gcb < gnb { " open" } else { "" };
    let label = if by_prefix {
        format!("<span class=\"gname prefix\">{}</span>", esc(key))
    } else {
        format!("<span class=\"gname\">{}</span>", esc(key))
    };
    let _ = writeln!(
        p.h,
        "<details class=\"group {}\"{open}>\n<summary>{label}{}<span class=\"num\">{}</span>\
         <span class=\"num wide\">{gcf}/{gnf} functions, {gcb}/{gnb} blocks</span></summary>",
        state(gcb, gnb),
        bar(gcb, gnb, "blocks"),
        percent(gcb, gnb),
    );
    let _ = writeln!(
        p.h,
        "<div class=\"fns\">\n<div class=\"row fhead\"><span></span><span>function</span>\
         <span class=\"num\">{}</span><span class=\"num\">blocks</span><span class=\"bar-head\"></span>\
         <span class=\"num\">%</span>\
         <span class=\"num\" title=\"corpus entries that reach the function\">entries</span></div>",
        if by_prefix { "address" } else { "line" }
    );
    for &(i, f) in fs {
        function(p, by_prefix, i, f);
    }
    p.h.push_str("</div>\n</details>\n");
}

/// One function: a row that opens to its source lines.
fn function(p: &mut Page, by_prefix: bool, i: usize, f: &Function) {
    let st = state(f.covered, f.blocks);
    let place = match (by_prefix, f.line) {
        (false, Some(l)) => l.to_string(),
        (false, None) => String::new(),
        (true, _) => format!("0x{:x}", f.offset),
    };
    let _ = writeln!(
        p.h,
        "<details class=\"fn {st}\" id=\"f{i}\"><summary class=\"row\">\
         <span class=\"mark-cell\">{}</span><span class=\"name\">{}</span>\
         <span class=\"num place\">{place}</span><span class=\"num\">{}/{}</span>{}\
         <span class=\"num\">{}</span><span class=\"num\">{}</span></summary>",
        symbol(st),
        esc(&f.name),
        f.covered,
        f.blocks,
        bar(f.covered, f.blocks, "blocks"),
        percent(f.covered, f.blocks),
        f.reached_by
    );
    p.h.push_str("<div class=\"src\">\n");
    for (k, (file, lines)) in by_file(f).into_iter().enumerate() {
        source(p, i, f, k == 0, file, &lines);
    }
    if !f.unplaced.is_empty() {
        let title = crate::cover_text::unplaced_title(f);
        let _ = write!(p.h, "<p class=\"blocks\">{title}:");
        for b in &f.unplaced {
            let st = if b.hit { "full" } else { "none" };
            let _ = write!(
                p.h,
                " <code class=\"blk {st}\">{} 0x{:x}</code>",
                symbol(st),
                b.offset
            );
        }
        p.h.push_str("</p>\n");
    }
    p.h.push_str("</div>\n</details>\n");
}

/// The lines of one source file of a function: every line from its first
/// with code to its last, each with its mark, the entries that reach it
/// and a link to the next line not fully covered; without the file, only
/// the lines with code, by their blocks' addresses.
fn source(p: &mut Page, func: usize, f: &Function, own: bool, file: usize, lines: &[&Line]) {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return;
    };
    let name = p.sources.name(file).to_string();
    let src = p.sources.get(file);
    if !own {
        let _ = writeln!(p.h, "<p class=\"file\">in <code>{}</code></p>", esc(&name));
    }
    if let Some(note) = &src.note {
        let _ = writeln!(p.h, "<p class=\"note\">{}</p>", esc(note));
    }
    let numbers: Vec<u32> = match src.lines {
        Some(_) => (first.number..=last.number).collect(),
        None => lines.iter().map(|l| l.number).collect(),
    };
    let mut rows = String::new();
    let mut at = lines.iter().peekable();
    for number in numbers {
        let text = src.line(number).map(|t| esc(&String::from_utf8_lossy(t)));
        let Some(l) = at.next_if(|l| l.number == number).copied() else {
            let _ = writeln!(
                rows,
                "<tr><td class=\"ln\">{number}</td><td></td><td></td><td class=\"code\">{}</td>\
                 <td></td></tr>",
                text.unwrap_or_default()
            );
            continue;
        };
        let id = line_id(func, own, l);
        let mark = f.mark(l);
        let next = match p.next.get(id.as_str()) {
            Some(to) => format!("<a href=\"#{to}\" title=\"next gap\">&darr;</a>"),
            None => String::new(),
        };
        let text = text.unwrap_or_else(|| format!("<span class=\"addr\">{}</span>", addresses(l)));
        let change = match p.old.and_then(|o| o.line(l)) {
            Some(sign) => format!("<span class=\"chg\">{sign}</span>"),
            None => String::new(),
        };
        let _ = writeln!(
            rows,
            "<tr id=\"{id}\" class=\"{}\" title=\"{}\">\
             <td class=\"ln\">{change}<a href=\"#{id}\">{number}</a></td><td class=\"mk\">{}</td>\
             <td class=\"cnt\">{}</td><td class=\"code\">{text}</td>\
             <td class=\"next\">{next}</td></tr>",
            mark.class(),
            esc(&line_title(l, mark)),
            symbol(mark.class()),
            f.line_entries(l).map(|c| c.to_string()).unwrap_or_default(),
        );
    }
    let _ = writeln!(
        p.h,
        "<table class=\"lines\">\n<tbody>\n{rows}</tbody>\n</table>"
    );
}

/// A line's tooltip: what its mark means there.
fn line_title(l: &Line, mark: Mark) -> String {
    if let Some(r) = l.ran {
        let ran = match (mark, r.entries) {
            (Mark::Unknown, _) => "the counts around its code do not tell whether it ran".into(),
            (Mark::NotReached, _) => "none of its code ran".to_string(),
            (Mark::Partly, Some(n)) => {
                format!("some of its code ran ({n} {}), some never did", entries(n))
            }
            (_, Some(n)) => format!("its code ran ({n} {})", entries(n)),
            (_, None) => String::new(),
        };
        return match r.choices {
            0 => ran,
            n => format!(
                "{ran}; {n} conditional {} here: which side was taken is not counted",
                if n == 1 { "move" } else { "moves" }
            ),
        };
    }
    let blocks = l
        .blocks
        .iter()
        .map(|b| format!("0x{:x}", b.offset))
        .collect::<Vec<_>>()
        .join(", ");
    let ran = l.blocks.iter().filter(|b| b.hit).count();
    match (l.blocks.is_empty(), mark) {
        (true, Mark::NotReached) => "the function is not reached".to_string(),
        (true, Mark::Covered) => "every block of the function ran".to_string(),
        (true, _) => "code of blocks that start on other lines".to_string(),
        (false, _) => format!(
            "{ran} of {} {} starting here ran ({blocks}); {} {} reach it",
            l.blocks.len(),
            if l.blocks.len() == 1 {
                "block"
            } else {
                "blocks"
            },
            l.entries,
            if l.entries == 1 { "entry" } else { "entries" },
        ),
    }
}

fn entries(n: usize) -> &'static str {
    if n == 1 {
        "entry"
    } else {
        "entries"
    }
}

/// The mark of a state: a cross, a half circle, a tick, or a dot for
/// code whose coverage the counts do not tell.
fn symbol(state: &str) -> &'static str {
    match state {
        "none" => "&#x2717;",
        "part" => "&#x25D0;",
        "full" => "&#x2713;",
        _ => "&middot;",
    }
}

const STYLE: &str = r#"
:root { --bg:#fff; --fg:#1f2328; --muted:#59636e; --line:#d0d7de; --card:#f6f8fa;
  --none:#7d0a1b; --none-bg:#ffa3a3; --part:#5c4100; --part-bg:#f8d568; --full:#116329; --full-bg:#f4fcf6;
  --track:#f3c4c4; --fill:#2da44e; }
@media (prefers-color-scheme: dark) {
  :root { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --line:#30363d; --card:#161b22;
    --none:#ffd8d6; --none-bg:#9a2e37; --part:#f7d774; --part-bg:#4a3808; --full:#7ee2a8; --full-bg:#0d1a12;
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
.dot { font-weight:700; margin-left:.6rem; }
.mark.none { background:var(--none); } .mark.part { background:var(--part); } .mark.full { background:var(--full); }
.toggle { position:absolute; opacity:0; pointer-events:none; }
.toggle:checked ~ header .legend label { background:var(--card); border-color:var(--fg); }
.toggle:checked ~ header .legend label::before { content:"\2713  "; }
.toggle:checked ~ main details.fn.full,
.toggle:checked ~ main details.group.full { display:none; }
.bar { display:inline-block; width:10rem; height:8px; border-radius:4px; background:var(--track); overflow:hidden; vertical-align:middle; }
.bar .fill { display:block; height:100%; background:var(--fill); }
.stops { color:var(--muted); margin:.25rem 0 0; }
a { color:inherit; }
details.group { border:1px solid var(--line); border-left:6px solid var(--line); border-radius:6px; margin:.5rem 0; background:var(--bg); }
details.group.none { border-left-color:var(--none); } details.group.part { border-left-color:var(--part); } details.group.full { border-left-color:var(--full); }
details.group > summary { cursor:pointer; padding:.45rem .75rem; display:flex; align-items:center;
  gap:1rem; background:var(--card); border-radius:4px; }
summary .gname { flex:1; font-weight:600; word-break:break-all; }
summary .gname.prefix::before { content:"name prefix  "; font-weight:400; color:var(--muted); font-family:system-ui, sans-serif; }
summary .num { color:var(--muted); white-space:nowrap; }
summary .num.wide { min-width:15rem; text-align:right; }
.row { display:grid; grid-template-columns:1.5rem minmax(10rem, 1fr) 5.5rem 5rem 10rem 4.5rem 4.5rem;
  gap:0 .6rem; align-items:center; padding:.2rem .6rem; }
.fhead { color:var(--muted); font-weight:500; border-bottom:1px solid var(--line); }
details.fn { border-top:1px solid var(--line); }
details.fn:first-of-type { border-top:0; }
details.fn > summary { cursor:pointer; list-style:none; }
details.fn > summary::-webkit-details-marker { display:none; }
details.fn > summary .name::before { content:"\25B8\00A0"; color:var(--muted); }
details.fn[open] > summary .name::before { content:"\25BE\00A0"; }
details.fn[open] > summary { border-bottom:1px dashed var(--line); }
.name { overflow-wrap:anywhere; }
.legend .item { white-space:nowrap; }
@media (max-width: 50rem) {
  body { padding:1rem .75rem 2rem; }
  .row { grid-template-columns:1.2rem minmax(6rem, 1fr) 3.5rem 3.5rem 3.5rem 3.5rem; gap:0 .4rem; }
  .row > .bar, .row > .bar-head, summary .num.wide { display:none; }
  .src { padding-left:.5rem; }
  td.ln, td.cnt { width:auto; }
}
.num { text-align:right; white-space:nowrap; }
.mark-cell { text-align:center; font-weight:700; }
details.fn.none > summary { background:var(--none-bg); }
details.fn.none > summary .mark-cell, details.fn.none > summary .name { color:var(--none); }
details.fn.part > summary { background:var(--part-bg); }
details.fn.part > summary .mark-cell { color:var(--part); }
details.fn.full > summary .mark-cell { color:var(--full); }
.src { padding:.4rem .6rem .7rem 2.7rem; }
.src p { margin:.2rem 0 .4rem; }
.note { color:var(--none); }
table.lines { border-collapse:collapse; width:100%; font-size:12.5px; line-height:1.5;
  font-family:ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table.lines td { padding:0 .5rem; vertical-align:top; }
td.ln { width:3.5rem; text-align:right; color:var(--muted); user-select:none; }
td.ln a { text-decoration:none; }
td.mk { width:1.2rem; text-align:center; font-weight:700; }
td.cnt { width:3.5rem; text-align:right; color:var(--muted); }
td.code { white-space:pre; tab-size:8; }
.src { overflow-x:auto; }
td.next { width:1.5rem; text-align:center; }
td.next a { text-decoration:none; font-weight:700; }
tr.full td.code { background:var(--full-bg); } tr.full td.mk { color:var(--full); }
tr.part td.code { background:var(--part-bg); }
tr.part td.mk, tr.part td.next a { color:var(--part); }
tr.none td.code { background:var(--none-bg); }
tr.none td.mk, tr.none td.next a { color:var(--none); }
tr.code td.mk { color:var(--muted); }
tr:target td { background:var(--card); } tr:target td.code { box-shadow:inset 3px 0 0 var(--fg); }
.addr { color:var(--muted); }
code.blk { margin-left:.4rem; padding:0 .3rem; border-radius:3px; }
code.blk.none { background:var(--none-bg); color:var(--none); }
code.blk.full { background:var(--full-bg); color:var(--full); }
footer { margin-top:2rem; color:var(--muted); font-size:12px; }
section.diff { border:1px solid var(--line); border-radius:6px; padding:.5rem 1rem; margin:0 0 1rem; }
section.diff h2 { font-size:1.1rem; margin:.2rem 0; }
table.diff td { padding:0 .6rem 0 0; }
.chg { font-weight:700; color:var(--fg); margin-right:.3rem; }
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

    /// The page's colours, `--name:#rrggbb`, of its light (first) or dark
    /// (second) `:root`.
    fn palette(dark: bool) -> std::collections::HashMap<String, [f64; 3]> {
        let root = STYLE.split(":root {").nth(1 + usize::from(dark)).unwrap();
        let root = &root[..root.find('}').unwrap()];
        root.split(';')
            .filter_map(|decl| {
                let (name, value) = decl.trim().split_once(':')?;
                let hex = value.trim().strip_prefix('#')?;
                let hex = if hex.len() == 3 {
                    hex.chars().flat_map(|c| [c, c]).collect()
                } else {
                    hex.to_string()
                };
                let c = |i: usize| {
                    let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
                    // sRGB to linear light.
                    if v <= 0.04045 {
                        v / 12.92
                    } else {
                        ((v + 0.055) / 1.055).powf(2.4)
                    }
                };
                Some((name.trim().to_string(), [c(0), c(2), c(4)]))
            })
            .collect()
    }

    /// WCAG's contrast ratio of two linear colours, as a viewer with
    /// `sight` (a matrix on linear RGB) sees them.
    fn contrast(a: [f64; 3], b: [f64; 3], sight: &[[f64; 3]; 3]) -> f64 {
        let luminance = |c: [f64; 3]| {
            let seen: Vec<f64> = sight
                .iter()
                .map(|row| (0..3).map(|j| row[j] * c[j]).sum::<f64>().clamp(0.0, 1.0))
                .collect();
            0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]
        };
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// The three line colours differ in lightness, not only in hue, for
    /// normal sight and under deuteranopia and protanopia (Machado, Oliveira
    /// and Fernandes 2009, severity 1), and every mark and text on them
    /// meets WCAG AA (4.5:1), in light and dark mode.
    #[test]
    fn line_colours_tell_apart_without_hue_and_meet_wcag_aa() {
        let normal = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let deuteranopia = [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ];
        let protanopia = [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ];
        for dark in [false, true] {
            let p = palette(dark);
            for (sight, name) in [
                (&normal, "normal"),
                (&deuteranopia, "deuteranopia"),
                (&protanopia, "protanopia"),
            ] {
                let marks = ["none", "part", "full"];
                for (i, a) in marks.iter().enumerate() {
                    let bg = p[&format!("--{a}-bg")];
                    for b in &marks[i + 1..] {
                        let other = p[&format!("--{b}-bg")];
                        let c = contrast(bg, other, sight);
                        assert!(c >= 1.2, "dark={dark} {name}: {a} and {b} rows {c:.2}");
                    }
                    for text in ["--fg", &format!("--{a}")] {
                        let c = contrast(p[text], bg, sight);
                        assert!(c >= 4.5, "dark={dark} {name}: {text} on {a} row {c:.2}");
                    }
                }
                for text in ["--fg", "--muted"] {
                    let c = contrast(p[text], p["--bg"], sight);
                    assert!(c >= 4.5, "dark={dark} {name}: {text} {c:.2}");
                }
            }
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(esc("a<b>&\"c\"'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;");
    }
}
