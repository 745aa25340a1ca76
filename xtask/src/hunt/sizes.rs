//! How large stress's inputs get. SIZE climbs from 1 to the largest allowed over the first
//! hundred cases, then starts again; the largest is 100, the generator's largest, unless the
//! reference cannot answer such inputs well within its limit: a quadratic brute force over a
//! generator of `n = 3000 × SIZE` runs past 10 s at size 58. So before a run with a reference,
//! a probe times the reference on one input at sizes 1, 2, 4, ... 100 and stops where it takes,
//! or would take by the growth it shows, more than a tenth of its limit; the run's sizes climb
//! to the largest size within that. The probe's answer depends on the machine, so a run it held
//! says so and its repeat command names the size (`--max-size`), which skips the probe.

use std::time::Duration;

use anyhow::{Context, Result};

use super::engine::{Case, Engine, RemoveOnDrop};

/// The largest SIZE a generator is asked for.
pub const MAX_SIZE: u64 = 100;

/// The sizes the probe times the reference at.
pub const PROBE_SIZES: [u64; 8] = [1, 2, 4, 8, 16, 32, 64, MAX_SIZE];

/// Below this a time says more about starting the program than about the input: growth is
/// then taken to be cubic, the steepest a brute force is given credit for.
const NOISE: Duration = Duration::from_millis(5);

/// The SIZE of case `n` (1-based) of a run of `cases` whose largest size is `max`: from 1 up to
/// `max` evenly over the first hundred cases (or over the whole run when it is shorter), then
/// from 1 again, so small cases come first and every size recurs.
pub fn case_size(n: u64, cases: u64, max: u64) -> u64 {
    let max = max.clamp(1, MAX_SIZE);
    let span = cases.clamp(1, MAX_SIZE);
    let step = (n - 1) % MAX_SIZE;
    1 + step * (max - 1) / (span - 1).max(1)
}

/// How large a run's inputs may get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ceiling {
    /// The largest SIZE.
    pub max_size: u64,
    /// Why it is below [`MAX_SIZE`], when the probe held it there.
    pub held: Option<Held>,
}

impl Ceiling {
    /// Every size, as far as the generator goes.
    pub const NONE: Ceiling = Ceiling {
        max_size: MAX_SIZE,
        held: None,
    };
}

/// Why the probe held the sizes: the reference's time at the largest size it timed, and what
/// that says of the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// The largest size timed.
    pub size: u64,
    /// The reference's CPU time there.
    pub time: Duration,
    /// The time it may take: a tenth of its limit.
    pub within: Duration,
    /// Its limit.
    pub limit: Duration,
}

/// What the probe does next, given the times so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Time the reference at this size.
    Time(u64),
    /// Stop: this is the largest size.
    Stop(u64),
}

/// The probe's next step after timing the reference at `timed` sizes (increasing, each with
/// its time), to keep it within `within` a case: stop when the last size took more, or when the
/// next would by the growth the last two show (between linear and cubic; cubic while the times
/// are under the noise); the largest size then the largest the growth says stays within.
pub fn next_step(timed: &[(u64, Duration)], within: Duration) -> Step {
    let Some(&(size, time)) = timed.last() else {
        return Step::Time(PROBE_SIZES[0]);
    };
    let previous = timed.len().checked_sub(2).map(|i| timed[i]);
    let exponent = match previous {
        Some((s1, t1)) if t1 >= NOISE && time > t1 => {
            ((time.as_secs_f64() / t1.as_secs_f64()).ln() / (size as f64 / s1 as f64).ln())
                .clamp(1.0, 3.0)
        }
        Some((_, t1)) if t1 >= NOISE => 1.0,
        _ => 3.0,
    };
    // The largest size whose time, grown from `(from, at)` by the exponent, stays within.
    let largest_within = |from: u64, at: Duration| -> u64 {
        let at = at.max(NOISE).as_secs_f64();
        let ratio = (within.as_secs_f64() / at).powf(1.0 / exponent);
        (from as f64 * ratio).floor() as u64
    };
    if time > within {
        return Step::Stop(match previous {
            Some((s1, t1)) => largest_within(s1, t1).clamp(s1, size - 1),
            None => 1,
        });
    }
    let Some(&next) = PROBE_SIZES.iter().find(|&&s| s > size) else {
        return Step::Stop(size);
    };
    let predicted = time.max(NOISE).as_secs_f64() * (next as f64 / size as f64).powf(exponent);
    if predicted <= within.as_secs_f64() {
        Step::Time(next)
    } else {
        Step::Stop(largest_within(size, time).clamp(size, next - 1))
    }
}

/// Times the reference on the generator's input at growing sizes (the seed of case 1 of the
/// run with `seed`) and says how large the run's inputs may get; every size with no reference.
pub fn probe(engine: &Engine, seed: u64) -> Result<Ceiling> {
    if !engine.has_reference() {
        return Ok(Ceiling::NONE);
    }
    let limit = engine.helper_time();
    let within = limit / 10;
    let path = engine.scratch_file("in");
    let _cleanup = RemoveOnDrop(&[&path]);
    let mut timed = Vec::new();
    loop {
        match next_step(&timed, within) {
            Step::Time(size) => {
                let case = Case {
                    number: 1,
                    seed: super::engine::case_seed(seed, 1),
                    size,
                };
                let context = || {
                    format!(
                        "timing the reference at size {size}, to tell how large inputs may get, \
                         on the input of {}",
                        engine.generator_command(&case)
                    )
                };
                engine.generate_into(&case, &path).with_context(context)?;
                let time = engine.time_reference(&path).with_context(context)?;
                timed.push((size, time.unwrap_or_default()));
            }
            Step::Stop(max_size) => {
                let &(size, time) = timed.last().expect("a size was timed");
                let held = (max_size < MAX_SIZE).then_some(Held {
                    size,
                    time,
                    within,
                    limit,
                });
                return Ok(Ceiling { max_size, held });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_grow_from_one_to_the_largest_then_start_again() {
        let sizes = |cases, max| {
            (1..=cases)
                .map(|n| case_size(n, cases, max))
                .collect::<Vec<_>>()
        };
        assert_eq!(sizes(1, 100), [1]);
        assert_eq!(sizes(2, 100), [1, 100]);
        assert_eq!(sizes(4, 100), [1, 34, 67, 100]);
        let run = sizes(250, 100);
        assert_eq!(&run[..3], [1, 2, 3]);
        assert_eq!(run[99], 100);
        assert_eq!(&run[100..102], [1, 2]);
        assert!(run.iter().all(|&s| (1..=MAX_SIZE).contains(&s)));
        let short = sizes(30, 100);
        assert!(short.windows(2).all(|w| w[0] < w[1]), "{short:?}");
        assert_eq!((short[0], short[29]), (1, 100));
        // Held at 10: the same climb, to 10.
        assert_eq!(sizes(4, 10), [1, 4, 7, 10]);
        let held = sizes(250, 10);
        assert_eq!((held[0], held[99], held[100]), (1, 10, 1));
        assert!(held.iter().all(|&s| (1..=10).contains(&s)));
        assert_eq!(sizes(3, 1), [1, 1, 1]);
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The probe on a quadratic reference (a tenth of a second at size 4) stops before a size
    /// that would pass a second, and allows the largest within it.
    #[test]
    fn a_quadratic_reference_holds_the_sizes_where_it_would_pass_the_bound() {
        let within = ms(1000);
        let quadratic = |s: u64| ms(6 * s * s + 1);
        let mut timed = Vec::new();
        let stop = loop {
            match next_step(&timed, within) {
                Step::Time(size) => timed.push((size, quadratic(size))),
                Step::Stop(max) => break max,
            }
        };
        // 6 s² ms: 961 ms at 12.6, so 12; the probe timed 1, 2, 4 and 8, never 16 (1.5 s).
        assert_eq!(timed.iter().map(|t| t.0).collect::<Vec<_>>(), [1, 2, 4, 8]);
        assert_eq!(stop, 12);
    }

    #[test]
    fn a_quick_reference_allows_every_size() {
        let mut timed = Vec::new();
        let stop = loop {
            match next_step(&timed, ms(1000)) {
                Step::Time(size) => timed.push((size, ms(1))),
                Step::Stop(max) => break max,
            }
        };
        assert_eq!(stop, MAX_SIZE);
        assert_eq!(timed.len(), PROBE_SIZES.len());
    }

    #[test]
    fn a_size_past_the_bound_stops_below_it() {
        // The first size already too slow.
        assert_eq!(next_step(&[(1, ms(1500))], ms(1000)), Step::Stop(1));
        // Quadratic, from 400 ms at 16 to 1,600 ms at 32, past a second: the largest size
        // within it is 16 × √(1000/400) = 25.3.
        assert_eq!(
            next_step(&[(16, ms(400)), (32, ms(1600))], ms(1000)),
            Step::Stop(25)
        );
    }
}
