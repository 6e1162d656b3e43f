//! What one `-sync` round costs an instance as the shared directory grows
//! (bench/sync-cost.sh runs it; bench/README.md has the figures).
//!
//! `cargo bench --bench sync_cost -- DIR [ENTRIES...]` fills DIR/sync from
//! INSTANCES simulated instances (64 unless $INSTANCES says otherwise) up
//! to each ENTRIES in turn (default 1000 10000 100000), bulk-written as
//! fuzz-run would have published them (each entry file, then its index
//! line; no fsync: the page cache is what is measured). At each size one
//! more instance does what fuzz-run does every -sync_interval (read what
//! the others appended, save its cursor, write its status): once when
//! nothing new arrived and once after 100 new entries did. For each, the
//! median wall time of ROUNDS (default 21) rounds and that round's bytes
//! read (rchar of /proc/self/io: every read(2), from the page cache or
//! not, including the few hundred bytes of /proc/self/io itself).
//!
//! One line of tab-separated figures per (size, case) on stdout, with a
//! header; progress on stderr.

use fuzz_core::store::digest;
use fuzz_core::store::sync::{Status, SyncDir, META};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

const TARGET: &str = "FuzzBench";

/// Bytes read by this process so far (every read(2), cached or not).
fn rchar() -> u64 {
    let io = std::fs::read_to_string("/proc/self/io").expect("/proc/self/io");
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|v| v.trim().parse().ok())
        .expect("rchar in /proc/self/io")
}

/// The simulated instances' indexes, open for appending.
struct Fleet {
    root: PathBuf,
    indexes: Vec<File>,
    written: u64,
}

impl Fleet {
    fn new(root: &Path, instances: usize) -> Fleet {
        let mut indexes = Vec::new();
        for i in 0..instances {
            let dir = root.join(META).join("instances").join(format!("sim{i:04}"));
            std::fs::create_dir_all(&dir).unwrap();
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.join("index"))
                .unwrap();
            indexes.push(f);
        }
        std::fs::create_dir_all(root.join(TARGET)).unwrap();
        Fleet {
            root: root.to_path_buf(),
            indexes,
            written: 0,
        }
    }

    /// One more entry, as instance `written % n` would publish it: a v1
    /// file of 40 to 200 bytes, then its index line.
    fn publish_one(&mut self) {
        let n = self.written;
        let len = 20 + (n.wrapping_mul(0x9e37_79b9) % 80) as usize;
        let payload: String = format!("{n:016x}").repeat(len / 16 + 1)[..len].to_string();
        let v1 = format!("go test fuzz v1\n[]byte(\"{payload}\")\n");
        let name = digest::entry_name(v1.as_bytes());
        std::fs::write(self.root.join(TARGET).join(&name), &v1).unwrap();
        let who = (n % self.indexes.len() as u64) as usize;
        self.indexes[who]
            .write_all(format!("{TARGET}\t{name}\n").as_bytes())
            .unwrap();
        self.written += 1;
    }
}

/// One round of instance `me`: what fuzz-run's Syncer does every interval
/// (fetch what is new; write the cursor and the status, each a file
/// written whole and renamed into place).
fn round(me: &mut SyncDir, status: &Status) -> Figures {
    let r0 = rchar();
    let t = Instant::now();
    let fetched = me.fetch_new().unwrap().entries.len();
    let fetch_us = t.elapsed().as_secs_f64() * 1e6;
    let bytes = (rchar() - r0).saturating_sub(rchar_noise());
    me.save_cursor().unwrap();
    me.write_status(status).unwrap();
    Figures {
        round_us: t.elapsed().as_secs_f64() * 1e6,
        fetch_us,
        bytes,
        fetched,
    }
}

/// What reading /proc/self/io itself adds to rchar.
fn rchar_noise() -> u64 {
    let a = rchar();
    rchar() - a
}

#[derive(Clone, Copy)]
struct Figures {
    round_us: f64,
    fetch_us: f64,
    bytes: u64,
    fetched: usize,
}

/// `rounds` rounds, each after `before` has run: the round of median time.
fn measure(me: &mut SyncDir, status: &Status, rounds: usize, mut before: impl FnMut()) -> Figures {
    let mut samples: Vec<Figures> = (0..rounds)
        .map(|_| {
            before();
            round(me, status)
        })
        .collect();
    samples.sort_by(|a, b| a.round_us.total_cmp(&b.round_us));
    samples[samples.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: cargo bench --bench sync_cost -- DIR [ENTRIES...]");
        std::process::exit(2);
    };
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let instances = env("INSTANCES", 64);
    let rounds = env("ROUNDS", 21);
    let mut sizes: Vec<u64> = args[1..]
        .iter()
        .map(|s| s.parse().expect("ENTRIES"))
        .collect();
    if sizes.is_empty() {
        sizes = vec![1_000, 10_000, 100_000];
    }
    let root = Path::new(dir).join("sync");
    if root.exists() {
        std::fs::remove_dir_all(&root).unwrap();
    }
    let mut fleet = Fleet::new(&root, instances);
    let mut me = SyncDir::open(&root, "measured", fuzz_core::store::sync::entry_cap(4096)).unwrap();
    let status = Status {
        id: "measured".into(),
        host: "bench".into(),
        pid: std::process::id(),
        targets: vec![TARGET.into()],
        execs: 1,
        execs_per_sec: 1.0,
        coverage: 1,
        corpus: 1,
        crashers: 0,
        updated: 0,
        interval: 30,
        done: false,
    };
    println!("instances\tentries\tcase\tround_us\tfetch_us\tbytes_read\tfetched\tcatch_up_s");
    for &size in &sizes {
        let t = Instant::now();
        while fleet.written < size {
            fleet.publish_one();
        }
        eprintln!(
            "sync_cost: {} entries from {instances} instances (filled in {:.1}s)",
            fleet.written,
            t.elapsed().as_secs_f64()
        );
        // Catch up first, as an instance that has followed along would
        // have: what it has seen is not read again.
        let t = Instant::now();
        round(&mut me, &status);
        let catch_up = t.elapsed().as_secs_f64();
        let quiet = measure(&mut me, &status, rounds, || {});
        let busy = measure(&mut me, &status, rounds, || {
            for _ in 0..100 {
                fleet.publish_one();
            }
        });
        assert_eq!(quiet.fetched, 0);
        assert_eq!(busy.fetched, 100);
        for (case, f) in [("nothing new", &quiet), ("100 new", &busy)] {
            println!(
                "{instances}\t{size}\t{case}\t{:.0}\t{:.0}\t{}\t{}\t{catch_up:.2}",
                f.round_us, f.fetch_us, f.bytes, f.fetched
            );
        }
    }
}
