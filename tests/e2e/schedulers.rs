//! The Kubernetes and GitHub Actions examples run the same fuzz tool
//! commands as the Slurm scripts that tests/e2e/slurm.rs runs on a real
//! cluster: the YAML is parsed, the shell in it is read command by command,
//! and each fuzz-run or fuzz-corpus command is compared, flag by flag, with
//! the Slurm scripts' (whose values differ: each scheduler names its
//! instances its own way).

use crate::common::*;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

/// One command of ours in a script: the tool, its subcommand (fuzz-corpus)
/// and the flags it passes, by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ToolCall {
    tool: String,
    sub: String,
    flags: Vec<String>,
    /// The value given to -sync_id, as written.
    sync_id: Option<String>,
}

/// The words of one logical shell line, with quotes removed, and the
/// operators that end a command (`;`, `&&`, `||`, `|`) as words of their
/// own. Enough shell for these scripts: no here-documents, no nested
/// quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    let push = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if cur.is_empty() => break,
            (None, ' ' | '\t') => push(&mut cur, &mut out),
            (None, ';') => {
                push(&mut cur, &mut out);
                out.push(";".into());
            }
            (None, '|' | '&') => {
                push(&mut cur, &mut out);
                let mut op = c.to_string();
                if chars.peek() == Some(&c) {
                    op.push(chars.next().unwrap());
                }
                out.push(op);
            }
            (None, c) => cur.push(c),
        }
    }
    assert!(quote.is_none(), "an unclosed quote in {line:?}");
    push(&mut cur, &mut out);
    out
}

/// Our commands in a shell script, in order.
fn tool_calls(script: &str) -> Vec<ToolCall> {
    let joined = script.replace("\\\n", " ");
    let mut calls = Vec::new();
    for line in joined.lines() {
        let w = words(line);
        for command in w.split(|w| [";", "&&", "||", "|", "&"].contains(&w.as_str())) {
            let mut command = command;
            while let Some(first) = command.first() {
                if first == "exec" || first.contains('=') && !first.starts_with('-') {
                    command = &command[1..];
                } else {
                    break;
                }
            }
            let Some(first) = command.first() else {
                continue;
            };
            let tool = first.rsplit('/').next().unwrap();
            if !["fuzz-run", "fuzz-corpus"].contains(&tool) {
                continue;
            }
            let rest = &command[1..];
            let sub = if tool == "fuzz-corpus" {
                rest.first().cloned().unwrap_or_default()
            } else {
                String::new()
            };
            let mut flags: Vec<String> = rest
                .iter()
                .filter(|w| w.starts_with('-'))
                .cloned()
                .collect();
            flags.sort();
            let sync_id = rest
                .iter()
                .position(|w| w == "-sync_id")
                .map(|i| rest[i + 1].clone());
            calls.push(ToolCall {
                tool: tool.into(),
                sub,
                flags,
                sync_id,
            });
        }
    }
    calls
}

/// The shell a YAML document runs: every `run:` of a workflow step, and
/// every container's command (the script of `sh -c`/`bash -c`, or the words
/// of the command and its args).
fn shell_of(doc: &Yaml, out: &mut Vec<String>) {
    match doc {
        Yaml::Hash(h) => {
            for (k, v) in h {
                match (k.as_str(), v) {
                    (Some("run"), Yaml::String(s)) => out.push(s.clone()),
                    (Some("command"), Yaml::Array(a)) => {
                        let words: Vec<&str> = a.iter().filter_map(Yaml::as_str).collect();
                        match words.as_slice() {
                            ["sh" | "bash", "-c", script, ..] => out.push(script.to_string()),
                            _ => {
                                let args: Vec<&str> = h
                                    .iter()
                                    .find(|(k, _)| k.as_str() == Some("args"))
                                    .and_then(|(_, v)| v.as_vec())
                                    .map(|a| a.iter().filter_map(Yaml::as_str).collect())
                                    .unwrap_or_default();
                                out.push([words, args].concat().join(" "));
                            }
                        }
                    }
                    _ => shell_of(v, out),
                }
            }
        }
        Yaml::Array(a) => a.iter().for_each(|v| shell_of(v, out)),
        _ => {}
    }
}

/// Our commands in a YAML file; each of its scripts must pass `bash -n`.
fn yaml_calls(path: &Path) -> Vec<ToolCall> {
    let text = std::fs::read_to_string(path).unwrap();
    let docs =
        YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut scripts = Vec::new();
    docs.iter().for_each(|d| shell_of(d, &mut scripts));
    assert!(!scripts.is_empty(), "{}: no shell found", path.display());
    for s in &scripts {
        let out = Command::new("bash").args(["-n", "-c", s]).output().unwrap();
        assert!(
            out.status.success(),
            "{}: bash -n: {}\n{s}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    scripts.iter().flat_map(|s| tool_calls(s)).collect()
}

fn file_calls(rel: &str) -> Vec<ToolCall> {
    tool_calls(&std::fs::read_to_string(root().join(rel)).unwrap())
}

/// The calls without their -sync_id values, as a set.
fn shapes(calls: &[ToolCall]) -> BTreeSet<(String, String, Vec<String>)> {
    calls
        .iter()
        .map(|c| (c.tool.clone(), c.sub.clone(), c.flags.clone()))
        .collect()
}

/// Every flag a call passes is one its tool knows.
#[track_caller]
fn flags_exist(calls: &[ToolCall]) {
    for c in calls {
        let mut args = vec![];
        if !c.sub.is_empty() {
            args.push(c.sub.as_str());
        }
        args.push("-help");
        let help = run_in(&root(), &c.tool, &args).expect(0).out();
        for f in &c.flags {
            assert!(
                help.contains(&format!("{f} ")) || help.contains(&format!("{f}\n")),
                "{} {}: no flag {f} in its -help",
                c.tool,
                c.sub
            );
        }
    }
}

#[test]
fn the_kubernetes_and_github_examples_run_the_slurm_scripts_commands() {
    require_tool("bash");
    let fuzz = file_calls("examples/slurm/fuzz.sbatch");
    let distill = file_calls("examples/slurm/distill.sbatch");
    // What the Slurm scripts run, and what the others must run too.
    assert_eq!(fuzz.len(), 1, "{fuzz:?}");
    let run = &fuzz[0];
    for f in [
        "-fuzz",
        "-parallel",
        "-fuzztime",
        "-keepfuzzing",
        "-sync",
        "-sync_id",
    ] {
        assert!(run.flags.contains(&f.to_string()), "{run:?} lacks {f}");
    }
    assert_eq!(run.sync_id.as_deref(), Some("$task"));
    let distill_shapes = shapes(&distill);
    for (sub, flag) in [("merge", Some("-lib")), ("merge", None), ("status", None)] {
        assert!(
            distill_shapes
                .iter()
                .any(|(_, s, f)| s == sub && flag.is_none_or(|fl| f.contains(&fl.to_string()))),
            "distill.sbatch lacks fuzz-corpus {sub} {flag:?}: {distill:?}"
        );
    }
    flags_exist(&fuzz);
    flags_exist(&distill);

    // Kubernetes: the same commands, instance named by the completion index.
    let k8s = yaml_calls(&root().join("examples/kubernetes/fuzz.yaml"));
    assert_eq!(shapes(&k8s), shapes(&fuzz), "kubernetes/fuzz.yaml");
    assert_eq!(k8s[0].sync_id.as_deref(), Some("$SYNC_ID"));
    let text = std::fs::read_to_string(root().join("examples/kubernetes/fuzz.yaml")).unwrap();
    assert!(text.contains("batch.kubernetes.io/job-completion-index"));
    assert!(text.contains("ReadWriteMany"));
    let k8s_distill = yaml_calls(&root().join("examples/kubernetes/distill.yaml"));
    assert_eq!(
        shapes(&k8s_distill),
        distill_shapes,
        "kubernetes/distill.yaml"
    );

    // GitHub Actions: both scripts' commands in one workflow, each shard an
    // instance named by the matrix.
    let gh = yaml_calls(&root().join("examples/github/fuzz.yml"));
    let both: BTreeSet<_> = shapes(&fuzz).union(&distill_shapes).cloned().collect();
    assert_eq!(shapes(&gh), both, "github/fuzz.yml");
    let gh_run: Vec<_> = gh.iter().filter(|c| c.tool == "fuzz-run").collect();
    assert_eq!(gh_run.len(), 1);
    assert_eq!(gh_run[0].sync_id.as_deref(), Some("${{ matrix.shard }}"));
}

#[test]
fn the_shell_reader_finds_commands_and_their_flags() {
    let calls = tool_calls(
        "set -e # fuzz-run -not this\nexec fuzz-run -fuzz \"$p\" \\\n   -sync_id 'a b' x.so || [ $? -eq 1 ]; tools/bin/fuzz-corpus merge -lib l d s && echo fuzz-run\n",
    );
    assert_eq!(
        calls,
        vec![
            ToolCall {
                tool: "fuzz-run".into(),
                sub: "".into(),
                flags: vec!["-fuzz".into(), "-sync_id".into()],
                sync_id: Some("a b".into()),
            },
            ToolCall {
                tool: "fuzz-corpus".into(),
                sub: "merge".into(),
                flags: vec!["-lib".into()],
                sync_id: None,
            },
        ]
    );
}
