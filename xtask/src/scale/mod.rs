//! How a solution scales: the engine behind `cargo xtask scale`. The problem's generator writes
//! one input at each size of a ladder from 1 to its largest (SIZE 100), the validator passes it
//! where the problem has one, and the solution runs on it, several times where its times are
//! small, until a size runs past the time limit (or the memory limit, or fails); then how its CPU
//! time and peak memory grow with the input's bytes is fitted ([`fit`]), and what it takes at the
//! largest size is measured or, past a limit, predicted. Nothing here prints: the command
//! (`commands/scale.rs`) renders what [`Scale::run`] and [`analyse`] return, and [`plot`] and
//! [`chart`] draw it.
//!
//! The runs are those of `stress` ([`Engine::generate_into`], [`Engine::time_run`]): the same
//! generator, seeds, validator and limits, one run at a time (side by side, runs would share
//! caches and a core's other thread), judged by the run alone (RE, TLE, MLE, OLE), never by an
//! answer, so no reference is needed.

pub mod chart;
pub mod fit;
pub mod plot;

use std::fs;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::hunt::engine::case_seed;
use crate::hunt::sizes::MAX_SIZE;
use crate::hunt::{Case, Engine};
use crate::judge::{CaseLimits, CaseReport, Verdict};
use crate::run::Clock;
use crate::scratch::Scratch;
use fit::{Fit, NoFit};

/// The sizes measured, smallest first: about ten a decade, evenly spread on a log scale, as a
/// fit on log-log axes wants them, up to the generator's largest.
pub const SIZES: [u64; 18] = [
    1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 79, MAX_SIZE,
];

/// The most runs at one size.
pub const MAX_RUNS: usize = 5;

/// Runs at one size go on while they have taken less CPU time than this in all (and fewer than
/// [`MAX_RUNS`]): several runs where times are small and noise counts most, one where a run
/// takes a good part of a second.
pub const SIZE_BUDGET: Duration = Duration::from_millis(300);

/// How many times the solution's start-up (a run on an empty input) is timed.
pub const START_UP_RUNS: usize = 5;

/// The least growth of peak memory over the start-up's that is fitted, whatever the start-up's
/// spread: ten pages of 4 KiB, the unit memory is counted in.
pub const MEMORY_FLOOR: u64 = 10 * 4096;

/// How many times the spread of the start-up's peaks a size's peak must stand above theirs to
/// be fitted: memory is counted exactly, so its noise is only how the start-up's pages vary.
pub const MEMORY_SPREADS: f64 = 3.0;

/// One run's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Its CPU time (or wall-clock time, where the system tells no CPU time).
    pub time: Duration,
    /// Its peak memory, where the system tells it.
    pub memory: Option<u64>,
}

impl Figures {
    fn of(report: &CaseReport) -> Figures {
        Figures {
            // Its CPU time where the system tells it, even for a run killed at another cap (a
            // solution that sleeps, killed at the cap on waiting): the CPU time is what is
            // plotted against the limit.
            time: report.cpu_time.unwrap_or_else(|| report.judged_time().0),
            memory: report.peak_memory,
        }
    }
}

/// One size measured.
#[derive(Debug, Clone)]
pub struct Size {
    /// The generator's SEED and SIZE (`number` is the size too).
    pub case: Case,
    /// The input's length.
    pub bytes: u64,
    /// Every run's figures, in order.
    pub runs: Vec<Figures>,
    /// The run that failed (TLE, MLE, RE, ...), which ends the measuring; `None` when all
    /// were AC.
    pub failed: Option<CaseReport>,
}

impl Size {
    /// The median time of its runs.
    pub fn time(&self) -> Duration {
        let seconds: Vec<f64> = self.runs.iter().map(|r| r.time.as_secs_f64()).collect();
        Duration::from_secs_f64(fit::median(&seconds))
    }

    /// The fastest and the slowest of its runs.
    pub fn time_range(&self) -> (Duration, Duration) {
        let times = self.runs.iter().map(|r| r.time);
        (
            times.clone().min().unwrap_or_default(),
            times.max().unwrap_or_default(),
        )
    }

    /// The largest peak memory of its runs, where the system tells it.
    pub fn memory(&self) -> Option<u64> {
        self.runs.iter().filter_map(|r| r.memory).max()
    }

    /// The verdict: AC, or the failing run's.
    pub fn verdict(&self) -> Verdict {
        self.failed.as_ref().map_or(Verdict::Ac, |r| r.verdict)
    }
}

/// What a scale run measured.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The solution's start-up: its runs on an empty input (empty when it did not end there by
    /// itself within the limit, so no start-up is taken off).
    pub start_up: Vec<Figures>,
    /// Each size measured, smallest first; the last one failed when the run stopped early.
    pub sizes: Vec<Size>,
    /// The largest size's case and input length (generated, and validated, even when it was
    /// not run, so a prediction is made for its real input).
    pub largest: (Case, u64),
    /// The clock the times are on: CPU, or the wall clock where the system tells no CPU time.
    pub clock: Clock,
}

impl Measured {
    /// The size whose failure stopped the run, when one did.
    pub fn stopped_at(&self) -> Option<&Size> {
        self.sizes.last().filter(|s| s.failed.is_some())
    }
}

/// A problem readied for a scale run: its engine (programs, judge, limits, validator).
#[derive(Debug)]
pub struct Scale<'a> {
    engine: &'a Engine,
    seed: u64,
    scratch: Scratch,
}

impl<'a> Scale<'a> {
    /// Readies a scale run with seed `seed` over `engine`'s programs (made with no reference:
    /// scale judges runs, not answers).
    pub fn new(engine: &'a Engine, seed: u64) -> Result<Scale<'a>> {
        Ok(Scale {
            engine,
            seed,
            scratch: Scratch::new("scale")?,
        })
    }

    /// The case of `size`: the generator's seed for it comes from the run's seed and the size,
    /// as a stress case's does, so a seed names the same inputs forever.
    pub fn case(&self, size: u64) -> Case {
        Case {
            number: size,
            seed: case_seed(self.seed, size),
            size,
        }
    }

    /// Times the start-up, then every size of [`SIZES`] in turn, calling `on_size` with each as
    /// it is measured, until one fails (TLE, MLE, RE, OLE; an interactive problem's WA) or the
    /// largest is done. A generator or validator that fails or refuses, an interactor or
    /// checker that fails: the tool's error.
    pub fn run(&self, mut on_size: impl FnMut(&Size)) -> Result<Measured> {
        let empty = self.scratch.path().join("empty.in");
        fs::write(&empty, b"").with_context(|| format!("cannot write {}", empty.display()))?;
        let start_case = Case {
            number: 0,
            seed: 0,
            size: 0,
        };
        let mut start_up = Vec::new();
        let mut clock = Clock::Cpu;
        for _ in 0..START_UP_RUNS {
            let report = self.engine.time_run(&start_case, &empty, false)?;
            if report.verdict == Verdict::Tle {
                // It waits or loops on an empty input: no start-up figure to take off.
                start_up.clear();
                break;
            }
            if report.cpu_time.is_none() {
                clock = Clock::Wall;
            }
            start_up.push(Figures::of(&report));
        }
        let mut sizes: Vec<Size> = Vec::new();
        for size in SIZES {
            let case = self.case(size);
            let path = self.scratch.path().join(format!("{size}.in"));
            let input = self.engine.generate_into(&case, &path)?;
            let mut measured = Size {
                case,
                bytes: input.len() as u64,
                runs: Vec::new(),
                failed: None,
            };
            let mut spent = Duration::ZERO;
            while measured.runs.len() < MAX_RUNS && spent < SIZE_BUDGET {
                let report = self.engine.time_run(&case, &path, true)?;
                if report.cpu_time.is_none() {
                    clock = Clock::Wall;
                }
                let figures = Figures::of(&report);
                spent += figures.time;
                measured.runs.push(figures);
                if report.verdict != Verdict::Ac {
                    measured.failed = Some(report);
                    break;
                }
            }
            let _ = fs::remove_file(&path);
            on_size(&measured);
            let failed = measured.failed.is_some();
            sizes.push(measured);
            if failed {
                break;
            }
        }
        let largest = match sizes.last() {
            Some(last) if last.case.size == MAX_SIZE => (last.case, last.bytes),
            _ => {
                let case = self.case(MAX_SIZE);
                let path = self.scratch.path().join(format!("{MAX_SIZE}.in"));
                let bytes = self.engine.generate_into(&case, &path)?.len() as u64;
                let _ = fs::remove_file(&path);
                (case, bytes)
            }
        };
        Ok(Measured {
            start_up,
            sizes,
            largest,
            clock,
        })
    }
}

/// How one figure (time in seconds, or memory in bytes) grows with the input.
#[derive(Debug, Clone)]
pub struct Growth {
    /// The start-up's figure, taken off every size's before fitting (0 when unknown).
    pub base: f64,
    /// How much a size's figure must stand above `base` to be fitted.
    pub floor: f64,
    /// For each size measured, in order: whether it was fitted (AC, its figure known, and
    /// standing `floor` above `base`).
    pub fitted: Vec<bool>,
    /// The power law of (figure - base) against the input's bytes.
    pub fit: Result<Fit, NoFit>,
}

impl Growth {
    /// The figure the fit gives for an input of `bytes`, and its range from E's: `None`
    /// without a fit.
    pub fn predict(&self, bytes: u64) -> Option<(f64, (f64, f64))> {
        let fit = self.fit.as_ref().ok()?;
        let x = bytes as f64;
        let (low, high) = fit.range_at(x);
        Some((self.base + fit.at(x), (self.base + low, self.base + high)))
    }

    /// Fits `figure - base` of every AC size where it stands at least `floor` above `base`.
    fn of(sizes: &[Size], base: f64, floor: f64, figure: impl Fn(&Size) -> Option<f64>) -> Growth {
        let mut points = Vec::new();
        let fitted: Vec<bool> = sizes
            .iter()
            .map(|size| match figure(size) {
                Some(value) if size.failed.is_none() && value - base >= floor => {
                    points.push((size.bytes as f64, value - base));
                    true
                }
                _ => false,
            })
            .collect();
        Growth {
            base,
            floor,
            fitted,
            fit: fit::power_law(&points),
        }
    }
}

/// A figure at the largest size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Estimate {
    /// Measured there.
    Measured(f64),
    /// Not measured (the run stopped before): the fit's figure for its input, and its range.
    Predicted(f64, (f64, f64)),
    /// Neither measured nor predicted (no fit, or no figure on this system).
    Unknown,
}

impl Estimate {
    /// The figure, measured or predicted.
    pub fn value(&self) -> Option<f64> {
        match *self {
            Estimate::Measured(v) | Estimate::Predicted(v, _) => Some(v),
            Estimate::Unknown => None,
        }
    }
}

/// What the measurements say.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The timer's resolution, read from the times themselves ([`fit::timer_resolution`]).
    pub resolution: Duration,
    /// The timer's noise, in seconds: the resolution or the spread of the start-up's runs,
    /// whichever is larger ([`fit::noise`]).
    pub noise: f64,
    /// CPU time (seconds) against input bytes.
    pub time: Growth,
    /// Peak memory (bytes) against input bytes.
    pub memory: Growth,
    /// CPU time at the largest size, in seconds.
    pub time_at_largest: Estimate,
    /// Peak memory at the largest size, in bytes.
    pub memory_at_largest: Estimate,
}

impl Analysis {
    /// Whether the largest size is, or is predicted, past the time limit.
    pub fn past_time(&self, limits: &CaseLimits, measured: &Measured) -> bool {
        let stopped = measured
            .stopped_at()
            .is_some_and(|s| s.verdict() == Verdict::Tle);
        stopped
            || self
                .time_at_largest
                .value()
                .is_some_and(|t| t > limits.time.as_secs_f64())
    }

    /// Whether the largest size is, or is predicted, past the memory limit.
    pub fn past_memory(&self, limits: &CaseLimits, measured: &Measured) -> bool {
        let stopped = measured
            .stopped_at()
            .is_some_and(|s| s.verdict() == Verdict::Mle);
        stopped
            || self
                .memory_at_largest
                .value()
                .is_some_and(|m| m > limits.memory as f64)
    }
}

/// Reads what `measured` says: how time and memory grow (fitted above the noise), and each at
/// the largest size, measured or predicted.
pub fn analyse(measured: &Measured) -> Analysis {
    let every_time: Vec<Duration> = measured
        .start_up
        .iter()
        .chain(measured.sizes.iter().flat_map(|s| &s.runs))
        .map(|r| r.time)
        .collect();
    let resolution = fit::timer_resolution(&every_time);
    let start_times: Vec<f64> = measured
        .start_up
        .iter()
        .map(|r| r.time.as_secs_f64())
        .collect();
    let noise = fit::noise(resolution, &start_times);
    let base = fit::median(&start_times);
    // Ten times the noise, so it is at most a tenth of a fitted figure; and at least the
    // start-up itself, so that a constant cost the empty run did not pay (a table set up before
    // reading) cannot flatten the line.
    let floor = (noise * f64::from(fit::NOISE_FACTOR)).max(base);
    let time = Growth::of(&measured.sizes, base, floor, |s| {
        Some(s.time().as_secs_f64())
    });
    let start_memory: Vec<f64> = measured
        .start_up
        .iter()
        .filter_map(|r| r.memory)
        .map(|m| m as f64)
        .collect();
    // Memory has no timer: its noise is how far the start-up's peaks stray (the loader's and
    // the allocator's pages), and three times that spread is growth, not chance. As with time,
    // a size is fitted only from the start-up's own figure over it, where what the input costs
    // outweighs what every run costs.
    let memory_base = fit::median(&start_memory);
    let memory_noise = (MEMORY_FLOOR as f64).max(MEMORY_SPREADS * fit::spread(&start_memory));
    let memory = Growth::of(
        &measured.sizes,
        memory_base,
        memory_noise.max(memory_base),
        |s| s.memory().map(|m| m as f64),
    );
    let peaks: Vec<f64> = measured
        .sizes
        .iter()
        .filter_map(Size::memory)
        .map(|m| m as f64)
        .collect();
    let highest = peaks.iter().copied().fold(f64::MIN, f64::max);
    let lowest = peaks.iter().copied().fold(f64::MAX, f64::min);
    let memory_is_flat = !peaks.is_empty() && highest - lowest < memory_noise;
    let (largest, bytes) = measured.largest;
    let at_largest = measured
        .sizes
        .last()
        .filter(|s| s.case.size == largest.size && s.failed.is_none());
    let time_at_largest = match at_largest {
        Some(size) => Estimate::Measured(size.time().as_secs_f64()),
        None => predicted(&time, bytes),
    };
    let memory_at_largest = match at_largest.map(Size::memory) {
        Some(Some(peak)) => Estimate::Measured(peak as f64),
        Some(None) => Estimate::Unknown,
        None => match predicted(&memory, bytes) {
            // Memory that did not grow measurably over every size stays about where it was;
            // memory that grew, too little to fit, is not guessed at.
            Estimate::Unknown if memory_is_flat => Estimate::Predicted(highest, (highest, highest)),
            estimate => estimate,
        },
    };
    Analysis {
        resolution,
        noise,
        time,
        memory,
        time_at_largest,
        memory_at_largest,
    }
}

fn predicted(growth: &Growth, bytes: u64) -> Estimate {
    match growth.predict(bytes) {
        Some((value, range)) => Estimate::Predicted(value, range),
        None => Estimate::Unknown,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::judge::Detail;
    use crate::workspace::problem::MIB;

    /// A size measured with these times (ms) and peak memory (MB), AC unless `failed`.
    pub(crate) fn size(size: u64, bytes: u64, times_ms: &[f64], memory_mb: f64) -> Size {
        Size {
            case: Case {
                number: size,
                seed: size,
                size,
            },
            bytes,
            runs: times_ms
                .iter()
                .map(|&ms| Figures {
                    time: Duration::from_secs_f64(ms / 1000.0),
                    memory: Some((memory_mb * MIB as f64) as u64),
                })
                .collect(),
            failed: None,
        }
    }

    pub(crate) fn failed(mut size: Size, verdict: Verdict) -> Size {
        size.failed = Some(CaseReport {
            name: "x".into(),
            verdict,
            time: Duration::ZERO,
            cpu_time: None,
            peak_memory: None,
            peak_is_upper_bound: false,
            detail: Detail::None,
            hints: Vec::new(),
        });
        size
    }

    /// A quadratic solution on the ladder (1 ms start-up, 10 ms of work at size 1), stopped by
    /// a TLE at size 10.
    pub(crate) fn quadratic() -> Measured {
        let start = [1.0, 1.02, 0.98, 1.01, 0.99];
        let mut sizes: Vec<Size> = SIZES[..7]
            .iter()
            .map(|&s| {
                let work = 10.0 * (s * s) as f64;
                size(
                    s,
                    50_000 * s,
                    &[1.0 + work, 1.0 + work * 1.02],
                    2.0 + s as f64,
                )
            })
            .collect();
        sizes.push(failed(size(10, 500_000, &[1100.0], 12.0), Verdict::Tle));
        Measured {
            start_up: start
                .iter()
                .map(|&ms| Figures {
                    time: Duration::from_secs_f64(ms / 1000.0),
                    memory: Some(2 * MIB),
                })
                .collect(),
            sizes,
            largest: (
                Case {
                    number: 100,
                    seed: 1,
                    size: 100,
                },
                5_000_000,
            ),
            clock: Clock::Cpu,
        }
    }

    /// BOJ's usual limits: 1 s, 256 MB.
    pub(crate) fn limits() -> CaseLimits {
        CaseLimits {
            time: Duration::from_secs(1),
            memory: 256 * MIB,
            stack: 256 * MIB,
            stack_given: 256 * MIB,
            output_cap: 1 << 20,
        }
    }

    #[test]
    fn a_run_stopped_by_a_tle_predicts_the_largest_size_from_the_fit() {
        let measured = quadratic();
        let analysis = analyse(&measured);
        let fit = analysis.time.fit.as_ref().unwrap();
        assert!((fit.exponent - 2.0).abs() < 0.05, "{fit:?}");
        assert_eq!(fit.name(), Some("quadratic"));
        // The TLE size is never fitted: its time is where the runner stopped it.
        assert_eq!(analysis.time.fitted.last(), Some(&false));
        let Estimate::Predicted(seconds, (low, high)) = analysis.time_at_largest else {
            panic!("{:?}", analysis.time_at_largest);
        };
        // 10 ms × 100² = 100 s, and its range holds it.
        assert!((seconds / 100.0 - 1.0).abs() < 0.1, "{seconds}");
        assert!(low <= seconds && seconds <= high);
        assert!(analysis.past_time(&limits(), &measured));
        assert!(!analysis.past_memory(&limits(), &measured));
        // Memory grew a MB a size: 2 + 100 MB at size 100.
        let Estimate::Predicted(memory, _) = analysis.memory_at_largest else {
            panic!("{:?}", analysis.memory_at_largest);
        };
        assert!((memory / MIB as f64 - 102.0).abs() < 2.0, "{memory}");
        // Memory that grew, over too narrow a span to fit, is not guessed at; memory that did
        // not grow measurably stays where it was.
        let mut narrow = measured.clone();
        narrow.sizes.drain(..3);
        assert_eq!(analyse(&narrow).memory_at_largest, Estimate::Unknown);
        let mut flat = measured.clone();
        for run in flat.sizes.iter_mut().flat_map(|s| s.runs.iter_mut()) {
            run.memory = Some(2 * MIB + 4096);
        }
        let flat_memory = analyse(&flat).memory_at_largest;
        assert_eq!(flat_memory.value(), Some((2 * MIB + 4096) as f64));
    }

    #[test]
    fn times_under_the_noise_are_not_fitted() {
        let mut measured = quadratic();
        // A start-up of 1 ms that strays by about 1.2 ms: the floor is ten times that.
        for (run, ms) in measured.start_up.iter_mut().zip([1.0, 3.0, 0.2, 1.0, 2.5]) {
            run.time = Duration::from_secs_f64(ms / 1000.0);
        }
        let analysis = analyse(&measured);
        assert!(
            (analysis.noise - 0.0008 * 1.4826).abs() < 1e-9,
            "{}",
            analysis.noise
        );
        let floor = analysis.time.floor;
        for (size, fitted) in measured.sizes.iter().zip(&analysis.time.fitted) {
            let above = size.time().as_secs_f64() - analysis.time.base >= floor;
            assert_eq!(*fitted, above && size.failed.is_none(), "{size:?}");
        }
        assert!(
            !analysis.time.fitted[0],
            "10 ms at size 1 is under a 12 ms floor"
        );
    }

    #[test]
    fn a_run_that_reached_the_largest_size_is_measured_there() {
        let start = quadratic().start_up;
        let sizes: Vec<Size> = SIZES
            .iter()
            .map(|&s| size(s, 50_000 * s, &[1.0 + 0.5 * s as f64], 2.0 + 0.2 * s as f64))
            .collect();
        let measured = Measured {
            start_up: start,
            largest: (sizes.last().unwrap().case, sizes.last().unwrap().bytes),
            sizes,
            clock: Clock::Cpu,
        };
        let analysis = analyse(&measured);
        assert_eq!(analysis.time_at_largest, Estimate::Measured(0.051));
        let fit = analysis.time.fit.as_ref().unwrap();
        assert!((fit.exponent - 1.0).abs() < 0.05, "{fit:?}");
        assert!(!analysis.past_time(&limits(), &measured));
        let Estimate::Measured(memory) = analysis.memory_at_largest else {
            panic!();
        };
        assert!((memory / MIB as f64 - 22.0).abs() < 0.01);
    }
}
