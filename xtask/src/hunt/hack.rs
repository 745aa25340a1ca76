//! Hack: a coverage-guided search for an input the solution fails, where random stress does
//! not look. It starts from the samples and from small inputs the generator writes, alters
//! them as a competitive programmer alters a case ([`super::mutate`]), and keeps the inputs
//! that reach new code of the solution ([`super::coverage::Reach`]); every input goes through
//! the validator first, and one it refuses is never judged.
//!
//! Which kinds of alteration are drawn follows how often each made an input the validator
//! passed ([`Tally`]), so one that always breaks a problem's format soon fades.
//!
//! Each input is first run on the instrumented build (its counters, its output, how it ended)
//! and its output judged against the reference's answer; an input on which that run fails,
//! crashes or runs past a limit is then judged on the real build, whose verdict alone counts.
//! The first input the real build fails is shrunk ([`super::shrink`]) and returned.
//!
//! The search goes in rounds of [`ROUND`] inputs, made from the seed, the round and the inputs
//! kept so far, judged side by side and taken in order: with one seed it meets the same inputs
//! in the same order on any machine and whatever the jobs, and where it stops is only a matter
//! of time.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::counts::Counts;
use super::coverage::{Coverage, Reach};
use super::engine::{case_seed, Case, Checked, Engine, RemoveOnDrop, Tried};
use super::in_order::in_order;
use super::input::{mix, Input, Rng};
use super::mutate::{Alteration, Alterer, Tally};
use super::ranges::{self, Ranges};
use super::shrink::{self, Judged};
use crate::judge::{self, Verdict};
use crate::run::Exit;
use crate::workspace::problem::{Judge, Sample};

/// Inputs made and judged a round.
pub const ROUND: usize = 32;

/// The sizes the generator is asked for at the start, at two seeds each: small, since a small
/// input alters quickly and shrinks at once.
pub const START_SIZES: [u64; 6] = [1, 2, 3, 5, 8, 13];

/// One input in eight of a round is a fresh one from the generator, at a small size.
const FRESH: usize = 8;

/// How a hack runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The seed of every choice.
    pub seed: u64,
    /// How long to search.
    pub time: Duration,
    /// Inputs judged side by side.
    pub jobs: usize,
    /// Runs shrinking may take.
    pub shrink_budget: u64,
    /// The largest SIZE the generator is asked for.
    pub max_size: u64,
}

/// Where an input came from: a sample, the generator, or another input altered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A sample, by name.
    Sample(String),
    /// The generator's input for a case.
    Generated(Case),
    /// Input number `from`, altered.
    Altered {
        /// The input it was made from.
        from: u64,
        /// How.
        alterations: Vec<Alteration>,
    },
}

/// An input the search judged.
#[derive(Debug, Clone)]
struct Candidate {
    number: u64,
    bytes: Vec<u8>,
    origin: Origin,
}

/// An input kept for what it reached.
#[derive(Debug, Clone)]
struct Kept {
    number: u64,
    input: Input,
}

/// What the search found: the failing input, where it came from, and it shrunk.
#[derive(Debug, Clone)]
pub struct Found {
    /// Its number among the inputs judged.
    pub number: u64,
    /// Where it came from, back to a sample or a generated input.
    pub lineage: Vec<(u64, Origin)>,
    /// It, judged on the real build.
    pub first: Tried,
    /// The smallest failing input shrinking found (the same verdict).
    pub smallest: Tried,
    /// Runs shrinking took.
    pub shrink_runs: u64,
    /// The counts shrinking kept true.
    pub counts: Counts,
}

/// How far a search went.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    /// Inputs judged (the validator passed them).
    pub judged: u64,
    /// Inputs the validator refused.
    pub refused: u64,
    /// Inputs kept for reaching new code.
    pub kept: usize,
    /// Inputs the instrumented build failed that the real build passed.
    pub passed_on_the_real_build: u64,
    /// Lines of the problem's `src/` reached, of all its lines with code (`None` without
    /// coverage or before its first run).
    pub lines: Option<(usize, usize)>,
    /// Time spent.
    pub elapsed: Duration,
}

/// What a search ended with.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How far it went.
    pub progress: Progress,
    /// What every input judged reached.
    pub reach: Option<Reach>,
    /// What the validator allows of each number probed.
    pub ranges: Ranges,
    /// The failure found, when one was.
    pub found: Option<Found>,
}

/// What one input's evaluation says.
#[derive(Debug, Clone)]
enum Evaluated {
    Refused,
    Judged {
        counters: Option<Vec<u8>>,
        /// The instrumented run failed it but the real build did not.
        passed_on_the_real_build: bool,
    },
    Failed(Box<Tried>),
}

/// What to do about a missing validator: write one, or, when `cargo xtask new --stress` has
/// scaffolded `src/bin/NAME-validator.rs` already, make it check the constraints and name it.
fn validator_advice(name: &str, dir: &Path, manifest: &Path) -> String {
    let file = format!("src/bin/{name}-validator.rs");
    let naming = format!(
        "`validator = \"{name}-validator\"` to [package.metadata.boj] in {}",
        manifest.display()
    );
    if dir.join(&file).is_file() {
        format!(
            "{file} is there, as scaffolded: make it check this problem's constraints, then \
             add {naming}"
        )
    } else {
        format!(
            "add a binary {file} that exits 0 on a legal input (stdin) and 1 with the reason \
             otherwise, and {naming} (`cargo xtask new ID --stress` scaffolds one)"
        )
    }
}

/// A hack of a problem's engine.
#[derive(Debug)]
pub struct Hack<'a> {
    engine: &'a Engine,
    coverage: Option<&'a Coverage>,
    settings: Settings,
}

impl<'a> Hack<'a> {
    /// A search over `engine`'s problem, guided by `coverage` where there is one. An error
    /// when the problem has no validator: an altered input may break the constraints, and a
    /// failure on it would mean nothing.
    pub fn new(
        engine: &'a Engine,
        coverage: Option<&'a Coverage>,
        settings: Settings,
    ) -> Result<Hack<'a>> {
        if engine.validator().is_none() {
            let problem = engine.problem();
            bail!(
                "{} has no validator, and hack needs one: an altered input may break the \
                 problem's constraints, and a failure on it would mean nothing; {}",
                problem.name,
                validator_advice(&problem.name, &problem.dir, &problem.manifest)
            );
        }
        if matches!(engine.judge(), Judge::Interactive(_)) {
            bail!(
                "{} is interactive: hack alters inputs and judges outputs, which an \
                 interactive problem does not have; stress it instead",
                engine.problem().name
            );
        }
        Ok(Hack {
            engine,
            coverage,
            settings,
        })
    }

    /// The name an input is saved and reported under: `hack-SEED-N`.
    pub fn case_name(&self, number: u64) -> String {
        format!("hack-{}-{number}", self.settings.seed)
    }

    /// Searches until an input fails or the time is up; `on_round` is told how far it went
    /// after each round.
    pub fn run(&self, mut on_round: impl FnMut(&Progress)) -> Result<Outcome> {
        let started = Instant::now();
        let mut progress = Progress::default();
        let mut reach = None::<Reach>;
        let mut kept: Vec<Kept> = Vec::new();
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut origins: Vec<(u64, Origin)> = Vec::new();
        let mut tally = Tally::default();
        let mut next_number = 1;
        let mut first = self.starting_inputs()?;
        let examples: Vec<Input> = first.iter().filter_map(|c| Input::read(&c.bytes)).collect();
        let counts = Counts::infer(&examples);
        let ranges = self.probe_ranges(&examples, &counts)?;
        let alterer = Alterer::new(counts.clone(), &examples, ranges.clone());
        for candidate in &mut first {
            candidate.number = next_number;
            next_number += 1;
        }
        let mut round = 0u64;
        let mut pending = first;
        let line_map = std::cell::OnceCell::new();
        loop {
            let candidates: Vec<Candidate> = std::mem::take(&mut pending)
                .into_iter()
                .filter(|c| seen.insert(c.bytes.clone()))
                .collect();
            let mut found = None;
            let mut out_of_time = false;
            let stops = |evaluated: &(u64, Evaluated)| matches!(evaluated.1, Evaluated::Failed(_));
            let work = |worker: usize, c: &Candidate| -> Result<(u64, Evaluated)> {
                Ok((c.number, self.evaluate(worker, &c.bytes)?))
            };
            in_order(
                &candidates,
                self.settings.jobs,
                work,
                stops,
                |(number, evaluated)| {
                    let candidate = candidates
                        .iter()
                        .find(|c| c.number == *number)
                        .expect("a candidate of this round");
                    origins.push((*number, candidate.origin.clone()));
                    if let Origin::Altered { alterations, .. } = &candidate.origin {
                        tally.count(alterations, !matches!(evaluated, Evaluated::Refused));
                    }
                    match evaluated {
                        Evaluated::Refused => progress.refused += 1,
                        Evaluated::Judged {
                            counters,
                            passed_on_the_real_build,
                        } => {
                            progress.judged += 1;
                            progress.passed_on_the_real_build +=
                                u64::from(*passed_on_the_real_build);
                            if let Some(counters) = counters {
                                let reach = reach.get_or_insert_with(|| Reach::new(counters.len()));
                                if reach.add(counters) > 0 {
                                    if let Some(input) = Input::read(&candidate.bytes) {
                                        kept.push(Kept {
                                            number: *number,
                                            input,
                                        });
                                    }
                                }
                            }
                        }
                        Evaluated::Failed(tried) => {
                            progress.judged += 1;
                            found = Some((*number, (**tried).clone()));
                            return false;
                        }
                    }
                    if started.elapsed() >= self.settings.time {
                        out_of_time = true;
                        return false;
                    }
                    true
                },
            )?;
            progress.kept = kept.len();
            progress.elapsed = started.elapsed();
            if let (Some(coverage), Some(reach)) = (self.coverage, &reach) {
                if line_map.get().is_none() {
                    if let Ok(map) = coverage.line_map() {
                        let _ = line_map.set(map);
                    }
                }
                if let Some(map) = line_map.get() {
                    progress.lines = Some(map.reached_lines(reach));
                }
            }
            on_round(&progress);
            if let Some((number, tried)) = found {
                let found = self.shrunk(number, tried, &origins, &counts)?;
                return Ok(Outcome {
                    progress,
                    reach,
                    ranges,
                    found: Some(found),
                });
            }
            if out_of_time || started.elapsed() >= self.settings.time {
                return Ok(Outcome {
                    progress,
                    reach,
                    ranges,
                    found: None,
                });
            }
            round += 1;
            pending = self.round_inputs(round, &mut next_number, &kept, &alterer, &tally, &seen)?;
        }
    }

    /// What the validator allows of each number, probed on the smallest of `examples` (all of
    /// which it passed: the samples, and what the generator wrote).
    fn probe_ranges(&self, examples: &[Input], counts: &Counts) -> Result<Ranges> {
        let Some(smallest) = examples.iter().min_by(|a, b| a.smallness(b)) else {
            return Ok(Ranges::default());
        };
        ranges::probe(smallest, counts, self.settings.jobs, |_, input| {
            let path = self.engine.scratch_file("in");
            let _cleanup = RemoveOnDrop(&[&path]);
            super::engine::write(&path, &input.write())?;
            self.engine.passes_within(&path, ranges::PROBE_RUN_TIME)
        })
    }

    /// The inputs the search starts from: the samples, then the generator's at small sizes.
    fn starting_inputs(&self) -> Result<Vec<Candidate>> {
        let mut inputs = Vec::new();
        for sample in self.engine.problem().samples()? {
            let fed = judge::FedInput::of(&sample)?;
            let bytes = std::fs::read(&fed.path)
                .with_context(|| format!("cannot read {}", sample.input.display()))?;
            inputs.push(Candidate {
                number: 0,
                bytes,
                origin: Origin::Sample(sample.name.clone()),
            });
        }
        if self.engine.problem().meta.generator.is_some() {
            for (i, &size) in START_SIZES.iter().enumerate() {
                for copy in 0..2u64 {
                    let case = Case {
                        number: 0,
                        seed: case_seed(self.settings.seed, (i as u64) << 1 | copy),
                        size: size.min(self.settings.max_size),
                    };
                    inputs.push(Candidate {
                        number: 0,
                        bytes: self.engine.generate(&case)?,
                        origin: Origin::Generated(case),
                    });
                }
            }
        }
        Ok(inputs)
    }

    /// Round `round`'s inputs: the kept ones altered, and now and then a fresh generated one;
    /// each fixed by the seed, the round, its place in the round and what was kept.
    fn round_inputs(
        &self,
        round: u64,
        next_number: &mut u64,
        kept: &[Kept],
        alterer: &Alterer,
        tally: &Tally,
        seen: &HashSet<Vec<u8>>,
    ) -> Result<Vec<Candidate>> {
        let mut made = Vec::with_capacity(ROUND);
        let mut fresh = HashSet::new();
        for slot in 0..ROUND as u64 {
            let mut rng = Rng::new(mix(self.settings.seed ^ mix(round << 16 | slot)));
            let generated = self.engine.problem().meta.generator.is_some()
                && (kept.is_empty() || rng.one_in(FRESH));
            let (bytes, origin) = if generated {
                let case = Case {
                    number: 0,
                    seed: (rng.bits() >> 32),
                    size: 1 + rng.below(START_SIZES[START_SIZES.len() - 1] as usize) as u64,
                };
                let case = Case {
                    size: case.size.min(self.settings.max_size),
                    ..case
                };
                (self.engine.generate(&case)?, Origin::Generated(case))
            } else {
                let Some(parent) = pick(kept, &mut rng) else {
                    continue;
                };
                let Some((altered, alterations)) =
                    alterer.alter_some(&parent.input, &mut rng, tally)
                else {
                    continue;
                };
                (
                    altered.write(),
                    Origin::Altered {
                        from: parent.number,
                        alterations,
                    },
                )
            };
            if seen.contains(&bytes) || !fresh.insert(bytes.clone()) {
                continue;
            }
            made.push(Candidate {
                number: *next_number,
                bytes,
                origin,
            });
            *next_number += 1;
        }
        Ok(made)
    }

    /// Validates one input, runs it on the instrumented build (or, without one, judges it on
    /// the real build) and judges it; a failure there is judged again on the real build.
    fn evaluate(&self, worker: usize, bytes: &[u8]) -> Result<Evaluated> {
        let engine = self.engine;
        let Some(coverage) = self.coverage else {
            return Ok(match engine.try_input(bytes, "hack")? {
                Checked::Refused(_) => Evaluated::Refused,
                Checked::Tried(tried) if tried.failed() => Evaluated::Failed(tried),
                Checked::Tried(_) => Evaluated::Judged {
                    counters: None,
                    passed_on_the_real_build: false,
                },
            });
        };
        let sample = Sample {
            name: "hack".to_string(),
            input: engine.scratch_file("in"),
            answer: engine.scratch_file("out"),
        };
        let output = engine.scratch_file("output");
        let _cleanup = RemoveOnDrop(&[&sample.input, &sample.answer, &output]);
        super::engine::write(&sample.input, bytes)?;
        if engine.refusal(&sample.input)?.is_some() {
            return Ok(Evaluated::Refused);
        }
        let answer = engine.answer(&sample.input).with_context(|| {
            format!(
                "on this input, which the validator passed:\n{}",
                shown(bytes)
            )
        })?;
        super::engine::write(&sample.answer, &answer)?;
        let run = coverage.run(worker, &sample.input, Some(&output))?;
        let limits = engine.limits();
        let suspicious = run.exit != Exit::Code(0)
            || run.cpu_time > limits.time
            || run.peak_memory.is_some_and(|peak| peak > limits.memory)
            || match engine.case_judge() {
                Some(judge) => {
                    judge::judge_output(&sample, judge, &run.output, limits)? != Verdict::Ac
                }
                None => false,
            };
        if suspicious {
            // The real build's verdict alone counts.
            if let Checked::Tried(tried) = engine.try_input(bytes, "hack")? {
                if tried.failed() {
                    return Ok(Evaluated::Failed(tried));
                }
            }
        }
        Ok(Evaluated::Judged {
            counters: run.counters,
            passed_on_the_real_build: suspicious,
        })
    }

    /// The failure shrunk, with its lineage.
    fn shrunk(
        &self,
        number: u64,
        tried: Tried,
        origins: &[(u64, Origin)],
        counts: &Counts,
    ) -> Result<Found> {
        let mut lineage = Vec::new();
        let mut at = number;
        while let Some((n, origin)) = origins.iter().find(|(n, _)| *n == at) {
            lineage.push((*n, origin.clone()));
            match origin {
                Origin::Altered { from, .. } => at = *from,
                _ => break,
            }
        }
        let name = self.case_name(number);
        let mut first = tried;
        first.report.name = name.clone();
        let verdict = first.report.verdict;
        let (smallest, shrink_runs) = match Input::read(&first.input) {
            Some(start) => {
                let test = |_: usize, candidate: &Input| -> Result<Judged<Tried>> {
                    Ok(match self.engine.try_input(&candidate.write(), &name)? {
                        Checked::Refused(_) => Judged::Refused,
                        Checked::Tried(t) if t.report.verdict == verdict => Judged::Failed(*t),
                        Checked::Tried(_) => Judged::Passed,
                    })
                };
                let shrunk = shrink::shrink(
                    &start,
                    counts,
                    self.settings.jobs,
                    self.settings.shrink_budget,
                    test,
                )?;
                (shrunk.found.unwrap_or_else(|| first.clone()), shrunk.runs)
            }
            None => (first.clone(), 0),
        };
        Ok(Found {
            number,
            lineage,
            first,
            smallest,
            shrink_runs,
            counts: counts.clone(),
        })
    }
}

/// A kept input to alter: one of the last sixteen kept, half the time; else the smaller of two
/// drawn from all, so that small inputs, which alter and shrink quickly, come up more often.
fn pick<'k>(kept: &'k [Kept], rng: &mut Rng) -> Option<&'k Kept> {
    if kept.is_empty() {
        return None;
    }
    if rng.one_in(2) {
        let recent = kept.len().min(16);
        return kept.get(kept.len() - 1 - rng.below(recent));
    }
    let a = &kept[rng.below(kept.len())];
    let b = &kept[rng.below(kept.len())];
    Some(if a.input.tokens() <= b.input.tokens() {
        a
    } else {
        b
    })
}

/// An input as an error shows it: up to ten lines.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut out: String = lines
        .iter()
        .take(10)
        .map(|l| format!("    | {l}\n"))
        .collect();
    if lines.len() > 10 {
        out.push_str(&format!("    | … {} more lines\n", lines.len() - 10));
    }
    out
}
