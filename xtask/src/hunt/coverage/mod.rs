//! Which code of the solution a run reached, measured on an instrumented build apart from the
//! judged one, so that verdicts and times are always those of the real build.
//!
//! The build is the judge build's sources and features in a profile of its own,
//! `judge-coverage` (opt-level 0, where a branch keeps its block: at -O an `if` may become a
//! select whose arm no counter sees; line tables for debug information), for the host named as
//! `--target`, so that the flags reach the problem's crates and their libraries but not build
//! scripts or proc macros: LLVM's SanitizerCoverage with one 8-bit counter a block and the
//! table of their PCs, linked with our runtime (`runtime/`), which reads the counters out.
//! [`lines`] maps counters to the lines of the problem's `src/`; [`Reach`] keeps which
//! counters runs hit, in AFL's buckets of hit counts (1, 2, 3, 4-7, 8-15, 16-31, 32-127,
//! 128+), so that a run that takes a loop more often is told from one that takes it once.

pub mod lines;
pub mod server;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::bundle::cache::compiler;
use crate::scratch::Scratch;
use crate::workspace::build::{self, BuildOptions};
use crate::workspace::problem::Problem;
use lines::LineMap;
use server::{Request, Run, Table};

/// The profile of the instrumented build.
pub const PROFILE: &str = "judge-coverage";

/// The flags that instrument: LLVM's SanitizerCoverage on edges, an 8-bit counter a block and
/// the table of their PCs, and every block its counter (none pruned), so that each stands for
/// its own lines (`lines`). A bool flag a block as well: the counters wrap to 0 at 256 hits,
/// and the runtime makes a wrapped counter whose flag is set 255, so that a block run 256
/// times is not named as never reached.
const FLAGS: [&str; 6] = [
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=3",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-inline-bool-flag",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-prune-blocks=0",
];

/// On Unix, the control-flow table too (each block's successors), from which `lines` names a
/// branch with no code of its own, a bare `return;` or `continue;` (LLVM 16 and later: Rust
/// 1.70 and later); Windows' runtime takes none yet.
const CONTROL_FLOW_FLAGS: &[&str] = if cfg!(unix) {
    &["-Cllvm-args=-sanitizer-coverage-control-flow"]
} else {
    &[]
};

/// Every flag the instrumented build is given ([`FLAGS`], [`CONTROL_FLOW_FLAGS`]).
fn instrumenting_flags() -> impl Iterator<Item = &'static str> {
    FLAGS.iter().chain(CONTROL_FLOW_FLAGS).copied()
}

/// The runtime linked into the instrumented build, as its source.
#[cfg(unix)]
const RUNTIME: &str = include_str!("runtime/unix.rs");
#[cfg(windows)]
const RUNTIME: &str = include_str!("runtime/windows.rs");

/// The first cases of a stress run that coverage measures, every one of them.
pub const MEASURED_FIRST: u64 = 20;

/// After the first, coverage measures one case in this many (7, which shares no factor with
/// the 100 cases sizes take to climb, so that over a long run every size is measured).
pub const MEASURED_EVERY: u64 = 7;

/// Which cases coverage measures, in words, as stress's report says it.
pub const MEASURED_RULE: &str = "the first 20, one in seven after";

/// Whether coverage measures case `n` of a stress run (`every_case`: all of them). A run on an
/// instrumented build costs about half a fresh start of a program (a fork, the run, the
/// counters back: 0.77 ms of CPU a case on BOJ 1717's fixture, where a case costs about 5 ms
/// of CPU in all), so measuring every case would cost stress a fifth of its speed; the first
/// cases, which climb through the small sizes, and one in seven after cost it a few percent.
/// A fixed rule of the case's number, so that a seed measures the same cases on any machine.
pub fn measures(n: u64, every_case: bool) -> bool {
    every_case || n <= MEASURED_FIRST || n.is_multiple_of(MEASURED_EVERY)
}

/// Which counters runs hit, each as the set of AFL buckets its hit counts fell in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    buckets: Vec<u8>,
}

/// The bucket (a bit) of a hit count.
fn bucket(count: u8) -> u8 {
    match count {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4..=7 => 8,
        8..=15 => 16,
        16..=31 => 32,
        32..=127 => 64,
        _ => 128,
    }
}

impl Reach {
    /// Nothing reached yet, of `counters` counters.
    pub fn new(counters: usize) -> Reach {
        Reach {
            buckets: vec![0; counters],
        }
    }

    /// Adds one run's counters; how many (counter, bucket) pairs were new.
    pub fn add(&mut self, counters: &[u8]) -> usize {
        let mut new = 0;
        for (seen, &count) in self.buckets.iter_mut().zip(counters) {
            let bit = bucket(count);
            if bit & !*seen != 0 {
                *seen |= bit;
                new += 1;
            }
        }
        new
    }

    /// Whether `counters` hold a (counter, bucket) pair not reached yet.
    pub fn is_new(&self, counters: &[u8]) -> bool {
        self.buckets
            .iter()
            .zip(counters)
            .any(|(&seen, &count)| bucket(count) & !seen != 0)
    }

    /// Whether counter `counter` was hit.
    pub fn hit(&self, counter: usize) -> bool {
        self.buckets.get(counter).is_some_and(|&b| b != 0)
    }

    /// How many (counter, bucket) pairs were reached.
    pub fn features(&self) -> usize {
        self.buckets.iter().map(|b| b.count_ones() as usize).sum()
    }
}

/// The instrumented build of a problem's solution.
#[derive(Debug, Clone)]
pub struct Instrumented {
    /// Its executable.
    pub exe: PathBuf,
    /// The problem's folder.
    pub dir: PathBuf,
}

/// Builds the instrumented solution of `problem`: the runtime compiled once for this compiler
/// (kept in `TARGET/xtask-coverage/`), then cargo's build of the solver binary alone. `target`
/// is cargo's target folder for the problem when the caller knows it (the judge build's
/// executables are in `TARGET/judge/`), else it is asked of cargo.
pub fn build(problem: &Problem, target: Option<&Path>) -> Result<Instrumented> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    let rustc = PathBuf::from(rustc);
    let version = compiler(&rustc, &problem.dir);
    let Some(host) = version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
    else {
        bail!(
            "cannot ask {} (`rustc -vV`) which system it builds for",
            rustc.display()
        );
    };
    let target = match target {
        Some(target) => target.to_path_buf(),
        None => build::target_directory(&problem.manifest)?,
    };
    let runtime = runtime_object(&rustc, &problem.dir, &host, &version, &target)?;
    let mut flags: Vec<String> = instrumenting_flags().map(String::from).collect();
    flags.push(format!("-Clink-arg={}", runtime.display()));
    if host.contains("apple") {
        // The debug information in a dSYM beside the executable, where the reader finds it
        // (ld64 leaves DWARF in the object files otherwise).
        flags.push("-Csplit-debuginfo=packed".to_string());
    }
    let options = BuildOptions {
        profile: PROFILE.to_string(),
        quiet: true,
        config: vec![
            format!("profile.{PROFILE}.inherits=\"judge\""),
            format!("profile.{PROFILE}.opt-level=0"),
            format!("profile.{PROFILE}.debug=\"line-tables-only\""),
            format!("profile.{PROFILE}.strip=false"),
            format!("profile.{PROFILE}.lto=false"),
            format!("profile.{PROFILE}.incremental=false"),
        ],
        target: Some(host),
        rustflags: Some(flags),
        ..BuildOptions::default()
    };
    let exe = build::solver_only(problem, &options)
        .context("the instrumented build of the solution (for coverage) failed")?;
    Ok(Instrumented {
        exe,
        dir: problem.dir.clone(),
    })
}

/// The runtime as an object file for `host`, compiled by `rustc` (run in `folder`) once for
/// each compiler and runtime source, into `TARGET/xtask-coverage/`.
fn runtime_object(
    rustc: &Path,
    folder: &Path,
    host: &str,
    version: &str,
    target: &Path,
) -> Result<PathBuf> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (RUNTIME, version, host).hash(&mut hasher);
    let key = format!("{:016x}", hasher.finish());
    let dir = target.join("xtask-coverage");
    let extension = if host.contains("windows-msvc") {
        "obj"
    } else {
        "o"
    };
    let object = dir.join(format!("runtime-{key}.{extension}"));
    if object.is_file() {
        return Ok(object);
    }
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let scratch = Scratch::new("coverage-runtime")?;
    let source = scratch.path().join("runtime.rs");
    fs::write(&source, RUNTIME)?;
    let built = scratch.path().join(format!("runtime.{extension}"));
    let output = std::process::Command::new(rustc)
        .current_dir(folder)
        .args(["--edition", "2021", "--crate-type", "lib", "--emit", "obj"])
        .args(["-C", "panic=abort", "-C", "opt-level=2", "--target", host])
        .arg("-o")
        .arg(&built)
        .arg(&source)
        .output()
        .with_context(|| format!("cannot run {}", rustc.display()))?;
    if !output.status.success() {
        bail!(
            "cannot compile the coverage runtime with {}:\n{}",
            rustc.display(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        );
    }
    // Renamed into place whole: two commands at once each write their own and one wins.
    fs::rename(&built, &object)
        .or_else(|_| fs::copy(&built, &object).map(|_| ()))
        .with_context(|| format!("cannot write {}", object.display()))?;
    Ok(object)
}

/// The instrumented solution, ready to run side by side: one runner a worker (on Unix a fork
/// server, started at its first run), the tables they report, and their line map.
#[derive(Debug)]
pub struct Coverage {
    instrumented: Instrumented,
    stack: Option<u64>,
    /// Limits of each run.
    cpu: Duration,
    memory_guard: u64,
    runners: Vec<Mutex<Option<Runner>>>,
    table: Mutex<Option<Table>>,
    /// The line map, read once.
    map: std::sync::OnceLock<LineMap>,
    scratch: Scratch,
}

#[derive(Debug)]
enum Runner {
    #[cfg(unix)]
    Server(server::Server),
    #[cfg(not(unix))]
    Once,
}

impl Coverage {
    /// `instrumented`, for `workers` runners, each run held to `cpu` of CPU time (2 × `cpu` +
    /// 1 s of wall clock) and, against runaways, `memory_guard` bytes (0: none), with the stack
    /// `stack`.
    pub fn new(
        instrumented: Instrumented,
        workers: usize,
        cpu: Duration,
        memory_guard: u64,
        stack: Option<u64>,
    ) -> Result<Coverage> {
        Ok(Coverage {
            instrumented,
            stack,
            cpu,
            memory_guard,
            runners: (0..workers.max(1)).map(|_| Mutex::new(None)).collect(),
            table: Mutex::new(None),
            map: std::sync::OnceLock::new(),
            scratch: Scratch::new("coverage")?,
        })
    }

    /// Runs the instrumented solution on the input in the file `input`, in `worker`'s runner;
    /// its output written to and read from `output` when given.
    pub fn run(&self, worker: usize, input: &Path, output: Option<&Path>) -> Result<Run> {
        let request = Request {
            input,
            output,
            cpu: self.cpu,
            wall: self.cpu * 2 + Duration::from_secs(1),
            memory_guard: self.memory_guard,
            output_cap: crate::run::DEFAULT_OUTPUT_CAP,
        };
        let slot = &self.runners[worker % self.runners.len()];
        let mut runner = slot.lock().unwrap_or_else(|e| e.into_inner());
        #[cfg(unix)]
        {
            if runner.is_none() {
                let server = server::Server::start(&self.instrumented.exe, self.stack)?;
                self.keep_table(server.table());
                *runner = Some(Runner::Server(server));
            }
            let Some(Runner::Server(server)) = runner.as_mut() else {
                unreachable!("started above");
            };
            let run = server.run(&request);
            if run.is_err() {
                // A server that stopped is started again at the next run.
                *runner = None;
            }
            run
        }
        #[cfg(not(unix))]
        {
            *runner = Some(Runner::Once);
            let file = self.scratch.path().join(format!("counters-{worker}.bin"));
            let (table, run) =
                server::run_once(&self.instrumented.exe, &request, &file, self.stack)?;
            if run.counters.is_some() {
                self.keep_table(&table);
            }
            Ok(run)
        }
    }

    /// Runs the instrumented solution on `input` (bytes) in `worker`'s runner, its output
    /// dropped: what a stress case reached.
    pub fn measure(&self, worker: usize, input: &[u8]) -> Result<Run> {
        let path = self.scratch.path().join(format!("input-{worker}.in"));
        fs::write(&path, input).with_context(|| format!("cannot write {}", path.display()))?;
        self.run(worker, &path, None)
    }

    fn keep_table(&self, table: &Table) {
        let mut kept = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_none() {
            *kept = Some(table.clone());
        }
    }

    /// How many counters the program has, once a run has said.
    pub fn counters(&self) -> Option<usize> {
        let kept = self.table.lock().unwrap_or_else(|e| e.into_inner());
        kept.as_ref().map(|t| t.pcs.len())
    }

    /// The line map of the problem's `src/`, once a run has given the tables.
    pub fn line_map(&self) -> Result<&LineMap> {
        if let Some(map) = self.map.get() {
            return Ok(map);
        }
        let kept = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let table = kept
            .as_ref()
            .context("no run of the instrumented build gave its tables")?;
        let map = LineMap::read(&self.instrumented.exe, table, &self.instrumented.dir)?;
        Ok(self.map.get_or_init(|| map))
    }

    /// Gets ready ahead of the first run, where it can (beside other work: stress's probe of
    /// the reference): on Unix the first runner's fork server started, which gives the tables,
    /// and the line map read from them.
    pub fn prepare(&self) -> Result<()> {
        #[cfg(unix)]
        {
            let mut runner = self.runners[0].lock().unwrap_or_else(|e| e.into_inner());
            if runner.is_none() {
                let server = server::Server::start(&self.instrumented.exe, self.stack)?;
                self.keep_table(server.table());
                *runner = Some(Runner::Server(server));
            }
            drop(runner);
            self.line_map()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both runtimes compile alone (`no_std`) and call nothing but the C library: no panic,
    /// no formatting, nothing of Rust's runtime, which the object cannot rely on. Each is
    /// compiled for this machine (Windows' too: its calls are only declared).
    #[test]
    fn the_runtimes_call_only_the_c_library() {
        use object::{Object, ObjectSymbol};
        let libc = [
            "getenv",
            "atexit",
            "open",
            "read",
            "write",
            "close",
            "dup2",
            "fork",
            "wait4",
            "mmap",
            "setrlimit",
            "alarm",
            "_exit",
            "prctl",
            "memcpy",
            "memset",
            "_wgetenv",
            "_wfopen",
            "fwrite",
            "fclose",
        ];
        let scratch = Scratch::new("runtime-test").unwrap();
        for (name, source) in [
            ("unix", include_str!("runtime/unix.rs")),
            ("windows", include_str!("runtime/windows.rs")),
        ] {
            let path = scratch.path().join(format!("{name}.rs"));
            fs::write(&path, source).unwrap();
            let object = scratch.path().join(format!("{name}.o"));
            let out = std::process::Command::new("rustc")
                .args(["--edition", "2021", "--crate-type", "lib", "--emit", "obj"])
                .args(["-C", "panic=abort", "-C", "opt-level=2", "-o"])
                .arg(&object)
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let bytes = fs::read(&object).unwrap();
            let file = object::File::parse(&*bytes).unwrap();
            let undefined: Vec<String> = file
                .symbols()
                .filter(|s| s.is_undefined() && !s.name().unwrap_or_default().is_empty())
                .map(|s| s.name().unwrap().trim_start_matches('_').to_string())
                .collect();
            for symbol in &undefined {
                assert!(
                    libc.iter().any(|c| c.trim_start_matches('_') == symbol),
                    "{name}: calls {symbol}"
                );
            }
            assert!(!undefined.is_empty(), "{name}");
        }
    }

    /// `source` as `src/main.rs` of a scratch folder named after `name`, built as `build`
    /// instruments one (the flags and the runtime, by rustc alone): the folder, the program and
    /// a fork server of it.
    fn instrumented_program(name: &str, source: &str) -> (Scratch, PathBuf, Coverage) {
        let scratch = Scratch::new(name).unwrap();
        let dir = scratch.path();
        fs::create_dir_all(dir.join("src")).unwrap();
        fs::write(dir.join("src/main.rs"), source).unwrap();
        let rustc = Path::new("rustc");
        let version = compiler(rustc, dir);
        let host = version
            .lines()
            .find_map(|l| l.strip_prefix("host: "))
            .unwrap()
            .to_string();
        let runtime = runtime_object(rustc, dir, &host, &version, &dir.join("target")).unwrap();
        let exe = dir.join("program");
        let out = std::process::Command::new(rustc)
            .current_dir(dir)
            .args([
                "--edition",
                "2021",
                "-Copt-level=0",
                "-Cdebuginfo=line-tables-only",
            ])
            .args(instrumenting_flags())
            .arg(format!("-Clink-arg={}", runtime.display()))
            .arg("-o")
            .arg(&exe)
            .arg("src/main.rs")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let instrumented = Instrumented {
            exe: exe.clone(),
            dir: dir.to_path_buf(),
        };
        let coverage = Coverage::new(instrumented, 1, Duration::from_secs(10), 0, None).unwrap();
        (scratch, exe, coverage)
    }

    /// One run of `input` by the fork server, which must end well: its counters, what it
    /// reached, and the lines (first, last) the line map says it did not reach.
    fn served_run(coverage: &Coverage, input: &[u8]) -> (Vec<u8>, Reach, Vec<(u32, u32)>) {
        let run = coverage.measure(0, input).unwrap();
        assert_eq!(run.exit, crate::run::Exit::Code(0));
        let counters = run.counters.expect("counters at exit");
        let mut reach = Reach::new(counters.len());
        reach.add(&counters);
        let unreached = coverage
            .line_map()
            .unwrap()
            .reached(&reach)
            .unreached
            .iter()
            .map(|r| (r.first, r.last))
            .collect();
        (counters, reach, unreached)
    }

    /// A small program built as `build` instruments one (the flags and the runtime, by rustc
    /// alone): the fork server and a run of its own each run it and give its counters, and the
    /// line map names the branch a run took and the one it did not.
    #[test]
    fn a_branch_not_taken_is_a_line_not_reached_by_the_server_or_a_run_alone() {
        let source = "use std::io::Read;\n\
            fn main() {\n\
            \x20   let mut s = String::new();\n\
            \x20   std::io::stdin().read_to_string(&mut s).unwrap();\n\
            \x20   let n: i64 = s.trim().parse().unwrap();\n\
            \x20   if n < 0 {\n\
            \x20       println!(\"negative\");\n\
            \x20   } else {\n\
            \x20       println!(\"{}\", n * 2);\n\
            \x20   }\n\
            }\n";
        let (scratch, exe, coverage) = instrumented_program("coverage-test", source);
        let dir = scratch.path();
        let (counters, mut reach, unreached) = served_run(&coverage, b"5\n");
        assert_eq!(unreached, [(7, 7)], "only the negative branch");
        let map = coverage.line_map().unwrap();

        // The same program run once, writing its counters at exit (Windows' way).
        let input = dir.join("negative.in");
        fs::write(&input, "-3\n").unwrap();
        let output = dir.join("negative.out");
        let request = Request {
            input: &input,
            output: Some(&output),
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(10),
            memory_guard: 0,
            output_cap: 0,
        };
        let (table, alone) =
            server::run_once(&exe, &request, &dir.join("counters.bin"), None).unwrap();
        assert_eq!(table.pcs.len(), counters.len());
        assert_eq!(alone.output, b"negative\n");
        reach.add(&alone.counters.expect("counters at exit"));
        assert!(map.reached(&reach).unreached.is_empty());
    }

    /// A bare `return;`, a bare `continue;` and a match arm that is only a `continue` have no
    /// code of their own (the debug information gives their jumps to the scope's end and the
    /// loop's head, both reached by other blocks): they were never named. The control-flow
    /// table names each while no run takes it, and none once runs have; the cleanup paths of
    /// the calls around them (a panic's, which no run takes either) are never named.
    #[cfg(unix)]
    #[test]
    fn a_bare_return_or_continue_no_run_takes_is_named() {
        let source = "use std::io::Read;\n\
            fn main() {\n\
            \x20   let mut s = String::new();\n\
            \x20   std::io::stdin().read_to_string(&mut s).unwrap();\n\
            \x20   let mut numbers: Vec<i64> = Vec::new();\n\
            \x20   for t in s.split_whitespace() {\n\
            \x20       let x = match t.parse::<i64>() {\n\
            \x20           Ok(x) => x,\n\
            \x20           Err(_) => continue,\n\
            \x20       };\n\
            \x20       numbers.push(x);\n\
            \x20   }\n\
            \x20   if numbers.is_empty() {\n\
            \x20       return;\n\
            \x20   }\n\
            \x20   let mut sum = 0;\n\
            \x20   for &x in &numbers {\n\
            \x20       if x < 0 {\n\
            \x20           continue;\n\
            \x20       }\n\
            \x20       sum += x;\n\
            \x20   }\n\
            \x20   println!(\"{}\", sum);\n\
            }\n";
        let (_scratch, _, coverage) = instrumented_program("coverage-codeless-test", source);
        let (_, mut reach, unreached) = served_run(&coverage, b"1 2 3\n");
        assert_eq!(unreached, [(9, 9), (14, 14), (19, 19)]);
        let map = coverage.line_map().unwrap();
        let named: Vec<String> = map
            .reached(&reach)
            .unreached
            .iter()
            .map(|r| r.text.clone())
            .collect();
        assert_eq!(named, ["Err(_) => continue,", "return;", "continue;"]);

        let (counters, _, unreached) = served_run(&coverage, b"4 x -1 5\n");
        assert_eq!(
            unreached,
            [(14, 14)],
            "a word and a negative number take the continues"
        );
        reach.add(&counters);
        let (counters, _, unreached) = served_run(&coverage, b"");
        assert!(
            unreached
                .iter()
                .all(|&(first, last)| first > 14 || last < 14),
            "{unreached:?}"
        );
        reach.add(&counters);
        let reached = map.reached(&reach);
        assert!(reached.unreached.is_empty(), "{:?}", reached.unreached);
        assert_eq!(map.reached_lines(&reach), (reached.total, reached.total));
    }

    /// A block run 256 times wraps its 8-bit counter to 0: it was named as never reached,
    /// though every run reached it (a table of 512 filled in a loop, in every run).
    #[test]
    fn a_block_run_a_multiple_of_256_times_is_reached() {
        let source = "fn main() {\n\
            \x20   let mut table = [0u64; 512];\n\
            \x20   for (i, t) in table.iter_mut().enumerate() {\n\
            \x20       *t = i as u64 * 3;\n\
            \x20   }\n\
            \x20   println!(\"{}\", table[7]);\n\
            }\n";
        let (scratch, exe, coverage) = instrumented_program("coverage-wrap-test", source);
        let dir = scratch.path();
        let (counters, _, unreached) = served_run(&coverage, b"");
        assert_eq!(unreached, [], "the fork server's run reached every line");
        let map = coverage.line_map().unwrap();

        // Run once, writing its counters at exit (Windows' way): the same.
        let input = dir.join("empty.in");
        fs::write(&input, "").unwrap();
        let request = Request {
            input: &input,
            output: None,
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(10),
            memory_guard: 0,
            output_cap: 0,
        };
        let (_, alone) = server::run_once(&exe, &request, &dir.join("counters.bin"), None).unwrap();
        let mut alone_reach = Reach::new(counters.len());
        alone_reach.add(&alone.counters.expect("counters at exit"));
        assert!(map.reached(&alone_reach).unreached.is_empty());
    }

    #[test]
    fn the_cases_measured_are_the_first_then_one_in_seven_and_reach_every_size() {
        let measured: Vec<u64> = (1..=1000).filter(|&n| measures(n, false)).collect();
        assert_eq!(&measured[..21], (1..=20).chain([21]).collect::<Vec<_>>());
        assert_eq!(measured.len(), 20 + 1000 / 7 - 2);
        assert!((1..=1000).all(|n| measures(n, true)));
        assert!(MEASURED_RULE.contains(&format!("first {MEASURED_FIRST},")));
        assert_eq!(MEASURED_EVERY, 7, "MEASURED_RULE says seven");
        // Sizes climb from 1 to 100 over each hundred cases: every size is measured.
        let sizes: std::collections::BTreeSet<u64> = measured
            .iter()
            .map(|&n| crate::hunt::sizes::case_size(n, 1000, 100))
            .collect();
        assert_eq!(sizes.len(), 100);
    }

    #[test]
    fn hit_counts_fall_in_buckets_and_only_new_buckets_count() {
        let mut reach = Reach::new(3);
        assert_eq!(reach.add(&[1, 0, 0]), 1);
        assert!(reach.hit(0) && !reach.hit(1) && !reach.hit(7));
        // The same bucket again: nothing new; 5 hits is the 4-7 bucket, new.
        assert!(!reach.is_new(&[1, 0, 0]));
        assert!(reach.is_new(&[5, 0, 0]));
        assert_eq!(reach.add(&[1, 0, 0]), 0);
        assert_eq!(reach.add(&[5, 0, 200]), 2);
        assert_eq!(reach.add(&[6, 0, 128]), 0);
        assert_eq!(reach.features(), 3);
        assert_eq!(
            (1..=255u8)
                .map(bucket)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            8
        );
    }
}
