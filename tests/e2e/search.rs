//! The search beyond Go's engine, each part shown by a planted bug that
//! needs it: parents chosen by rarity (-entropic) climb a ladder hidden
//! among 300 useless seeds; splicing (-cross_over) joins two halves found
//! apart; whole UTF-8 characters (-utf8 1) get three emoji into text that
//! must stay valid; numbers changed as numbers (-ascii_num) write a length
//! just past 16 bits as text; comparison outcomes counted as coverage
//! (-cmp_outcomes) climb a chain of decisions no edge shows. The targets
//! are built with gcc's trace-pc alone (the last with clang's trace-cmp,
//! which it needs) and fuzzed with -use_cmp 0 and -code_strings 0, so no
//! comparison operand or string of the code gives the answer away. Each test has its control: the same seeded
//! runs, as many executions, with the switch off, find nothing;
//! bench/search.sh times both (minutes, not seconds).

use crate::common::*;
use crate::work::Work;
use std::time::{Duration, Instant};

/// fuzz-run -fuzz . on `lib` in `w` (its testdata, its own cache), one
/// worker, no comparison feedback and no strings read from the code.
fn fuzz(w: &Work, lib: &str, args: &[&str]) -> Run {
    let search = [
        "-fuzz",
        ".",
        "-parallel",
        "1",
        "-use_cmp",
        "0",
        "-code_strings",
        "0",
    ];
    w.fuzz(lib, &[&search[..], args].concat())
}

/// Writes a one-[]byte seed file.
fn seed_file(w: &Work, target: &str, name: &str, bytes: &[u8]) {
    let v1 = fuzz_core::format::codec::encode(&[fuzz_core::Value::Bytes(bytes.to_vec())]);
    w.seed(target, name, v1);
}

#[track_caller]
fn found_abort(r: &Run, target: &str, started: Instant) {
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.out(), r.stderr);
    assert!(
        r.out().contains(&format!("--- FAIL: {target}")),
        "{}",
        r.out()
    );
    assert!(r.out().contains("SIGABRT"), "{}", r.out());
    // Seconds with the feature; the bench measures minutes without it.
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "{:?}",
        started.elapsed()
    );
}

/// Seeds 1 and 2, 500,000 executions each, one worker: the default finds
/// the target's abort (in 93,000 and 87,000 executions for the ladder,
/// 227,000 and 94,000 for the halves), and the same run with `off` (a
/// switch of the default search set to 0) finds nothing (neither did in
/// 3,000,000 executions).
fn found_only_by_default(target: &str, lib: &str, seeds: impl Fn(&Work), off: &str) {
    for seed in ["1", "2"] {
        let base = ["-seed", seed, "-fuzztime", "500000x"];
        let w = Work::new();
        seeds(&w);
        let started = Instant::now();
        let r = fuzz(&w, &example_lib(lib), &base);
        found_abort(&r, target, started);
        let w = Work::new();
        seeds(&w);
        let r = fuzz(&w, &example_lib(lib), &[&base[..], &[off, "0"]].concat());
        assert_eq!(r.code, 0, "{off} 0, seed {seed}: {}\n{}", r.out(), r.stderr);
    }
}

#[test]
fn rarity_climbs_a_ladder_hidden_among_many_seeds() {
    let seeds = |w: &Work| {
        let mut rng = Rng(11);
        for i in 0..300 {
            let len = 8 + rng.below(12);
            let bytes: Vec<u8> = (0..len)
                .map(|_| b"abcdefghijKMNOP"[rng.below(15)])
                .collect();
            seed_file(w, "ladder", &format!("seed{i:03}"), &bytes);
        }
    };
    found_only_by_default("ladder", "libladder.so", seeds, "-entropic");
}

/// Fuzzes `halves` from one useless seed with `flags` for at most 60 s:
/// its planted bug must be found.
fn halves_found_with(flags: &[&str]) {
    let w = Work::new();
    seed_file(&w, "halves", "start", b"xxxxxxxxxxxx");
    let started = Instant::now();
    let mut args = vec!["-fuzztime", "60s"];
    args.extend_from_slice(flags);
    let r = fuzz(&w, &example_lib("libhalves.so"), &args);
    found_abort(&r, "halves", started);
}

#[test]
fn splicing_joins_two_halves_found_apart() {
    let seeds = |w: &Work| seed_file(w, "halves", "start", b"xxxxxxxxxxxx");
    found_only_by_default("halves", "libhalves.so", seeds, "-cross_over");
}

/// The queue weights switched the other way round (AFL++'s tuning: size
/// ignored, new entries first) still pick the entries the bug needs.
#[test]
fn the_other_queue_weights_find_the_halves_too() {
    halves_found_with(&["-size_weight", "0", "-fresh_weight", "1"]);
}

/// New favoured entries first, and favour for only the entries the cover
/// of the edges needs (AFL++'s queue), still keep and pick both halves.
#[test]
fn new_entries_first_and_a_culled_favoured_set_find_the_halves_too() {
    halves_found_with(&["-fresh_first", "1", "-cull", "1"]);
}

/// Several mutations stacked on each input (AFL++'s havoc) still join
/// the halves: a splice and the stacked mutations after it must not undo
/// each other's work every time.
#[test]
fn stacked_mutations_find_the_halves_too() {
    halves_found_with(&["-stack", "1"]);
}

/// Every switch of the search (each field of fuzz_core's `Search`, read
/// from the type, so a new switch is tested without a word here), plus
/// -cmp_outcomes, set to its off value: the run still fuzzes, for exactly
/// the executions asked; and each switch given a value it does not take
/// is a one-line misuse naming it.
#[test]
fn every_search_switch_off_still_fuzzes_and_a_bad_value_is_misuse() {
    let w = Work::new();
    seed_file(&w, "halves", "start", b"xxxxxxxxxxxx");
    let go = serde_json::to_value(fuzz_core::worker::protocol::Search::GO).unwrap();
    let switches: Vec<(String, String)> = go
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, off)| {
            (
                format!("-{name}"),
                if off.is_boolean() {
                    "0".into()
                } else {
                    off.to_string()
                },
            )
        })
        .chain([("-cmp_outcomes".to_string(), "0".to_string())])
        .collect();
    assert!(switches.len() >= 12, "{switches:?}");
    let mut args: Vec<&str> = switches
        .iter()
        .flat_map(|(f, v)| [f.as_str(), v.as_str()])
        .collect();
    args.extend(["-fuzztime", "20000x", "-json"]);
    let r = fuzz(&w, &example_lib("libhalves.so"), &args).expect(0);
    let end = r
        .out()
        .lines()
        .find(|l| l.contains("\"event\":\"end\""))
        .unwrap()
        .to_string();
    assert!(end.contains("\"execs\":20000"), "{end}");
    for (flag, off) in &switches {
        let bad = if off == "0" && flag != "-len_control" {
            "2"
        } else {
            "-1"
        };
        let r = fuzz(&w, &example_lib("libhalves.so"), &[flag, bad]).expect(2);
        r.one_line_error("fuzz-run", flag);
    }
}

/// Whole UTF-8 characters against byte mutations alone, on the same
/// seeded runs (a seeded run repeats exactly): with -utf8 1 each finds three
/// emoji in valid text within 300,000 executions (15,000 to 130,000 for
/// seeds 1 to 3), without it neither does (bench/search.sh measures the
/// times over unseeded runs).
#[test]
fn whole_characters_get_emoji_into_text_that_must_stay_valid() {
    found_only_with("script", "libscript.so", b"text", "-utf8", |text| {
        let emoji = text
            .chars()
            .filter(|&c| ('\u{1f300}'..='\u{1faff}').contains(&c))
            .count();
        assert!(emoji >= 3, "{text:?}");
    });
}

/// Whole lines moved against byte mutations alone, on the same seeded
/// runs: with -lines 1 each puts the start seed's three lines in the order
/// the planted bug wants (a list, a definition and a heading line, one
/// after the other) within 500,000 executions, without it neither does
/// (bench/realbugs/text measures what it does on real parsers).
#[test]
fn whole_lines_put_the_seed_s_lines_in_another_order() {
    let start = b"# headings\n: definition\n- itemized\n";
    found_only_with("blocks", "libblocks.so", start, "-lines", |text| {
        let ordered = text.contains("- itemized\n: definition\n# headings\n");
        assert!(ordered, "{text:?}");
    });
}

/// Whole fields against byte mutations alone, on the same seeded runs:
/// with -fields 1 each puts the start seed's four '|'-separated words in
/// the order the planted bug wants (a ladder of three rungs, as a regex's
/// alternation of literals), within 500,000 executions; without it neither
/// does (bench/LOG.md measures what it does on the regex crate).
#[test]
fn whole_fields_put_the_seed_s_alternation_in_another_order() {
    let start = b"delta|charlie|bravo|alpha";
    found_only_with(
        "alternation",
        "libalternation.so",
        start,
        "-fields",
        |text| {
            assert!(text.starts_with("alpha|bravo|charlie|delta"), "{text:?}");
        },
    );
}

/// Numbers changed as numbers against byte mutations alone, on the same
/// seeded runs: with -ascii_num 1 each writes a size just past 16 bits
/// into "size=100" within 300,000 executions, without it (the default)
/// neither does.
#[test]
fn numbers_as_text_get_a_length_past_16_bits() {
    found_only_with(
        "length",
        "liblength.so",
        b"size=100",
        "-ascii_num",
        |text| {
            // A size from 65,536 to 65,599.
            let size: u64 = text
                .strip_prefix("size=")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{text:?}"));
            assert!((65_536..65_600).contains(&size), "{text:?}");
        },
    );
}

/// Comparison outcomes as coverage against edges alone, on the same seeded
/// runs: with -cmp_outcomes 1 each climbs the eight decisions of `hidden`
/// (computed, never branched on) within 300,000 executions (91,000 and
/// 180,000 for seeds 1 and 2), without it neither does: no edge moves.
#[test]
fn comparison_outcomes_climb_decisions_no_edge_shows() {
    found_only_with(
        "hidden",
        "libhidden.so",
        b"xxxxxxxx",
        "-cmp_outcomes",
        |text| assert!(text.starts_with("hidden!?"), "{text:?}"),
    );
}

/// Seeds 1 and 2, 500,000 executions each from the one seed `start` of
/// `target` in `lib`: with `flag` 1 the run finds the target's abort, and
/// `check` accepts the crasher's text; with the default (the flag off) it
/// does not.
fn found_only_with(target: &str, lib: &str, start: &[u8], flag: &str, check: fn(&str)) {
    for seed in ["1", "2"] {
        let base = ["-seed", seed, "-fuzztime", "500000x"];
        let w = Work::new();
        seed_file(&w, target, "start", start);
        let started = Instant::now();
        let on = [&base[..], &[flag, "1"]].concat();
        let r = fuzz(&w, &example_lib(lib), &on);
        found_abort(&r, target, started);
        let crashers = w.crashers(target);
        let file = crashers.first().expect("a crasher file");
        let values = fuzz_core::format::codec::decode(&std::fs::read(file).unwrap()).unwrap();
        check(std::str::from_utf8(values[0].as_bytes().unwrap()).expect("text"));

        let w = Work::new();
        seed_file(&w, target, "start", start);
        fuzz(&w, &example_lib(lib), &base).expect(0);
    }
}

/// -reduce_inputs: a seeded run of the TLV parser from nothing lets
/// shorter inputs take the place of entries in the worker's copy of the
/// corpus (29 of them in 100,000 executions, counted by the `end` event),
/// and none with the switch off. That the replacement keeps what the entry
/// brought is `fuzz_core::search::reduce`'s tests'; what it buys is
/// bench/realbugs' (results/reduce-300s.tsv).
#[test]
fn shorter_inputs_take_the_place_of_their_entries() {
    let lib = example_lib("libc_parse_clang_fixed.so");
    let reduced = |on: &str| {
        let w = Work::new();
        let args = [
            "-seed",
            "1",
            "-fuzztime",
            "100000x",
            "-fuzzminimizetime",
            "0",
            "-json",
            "-reduce_inputs",
            on,
        ];
        let r = fuzz(&w, &lib, &args).expect(0);
        let events = json_events(&r);
        let end = events
            .iter()
            .find(|v| v["event"] == "end")
            .unwrap_or_else(|| panic!("no end event: {}", r.out()));
        end["reduced"].as_u64().unwrap_or_else(|| panic!("{end}"))
    };
    let on = reduced("1");
    assert!(on >= 5, "{on} entries reduced");
    assert_eq!(reduced("0"), 0);
}
