//! How a measured figure grows with the input: a power law `y = c × x^E` fitted by least squares
//! on `ln y` against `ln x`, with how sure the fit is (R², and a 95% range of E from the spread
//! of the points about the line); which figures stand above the timer's noise; and a name for E
//! where it is clear. Pure functions over numbers, so they are tested on synthetic timings.
//!
//! Why log-log least squares: a power law is a straight line there, its slope is the exponent,
//! and a constant factor (the machine's speed, a busy machine's cache misses) only moves the
//! line up or down, so E is the same on any machine while absolute times are not.

use std::time::Duration;

/// The fewest points a growth is fitted from: with fewer, the range of E is too wide to say
/// anything (two points always lie on a line; three leave one degree of freedom).
pub const MIN_POINTS: usize = 4;

/// The least ratio between the largest and the smallest input fitted: a narrower span says
/// little about how the figure grows (a factor 4 in n is a factor 16 in n²).
pub const MIN_SPAN: f64 = 4.0;

/// How many times the timer's noise a figure must be to be fitted: then the noise is at most a
/// tenth of it.
pub const NOISE_FACTOR: u32 = 10;

/// A fitted power law `y = coefficient × x^exponent`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// E: how the figure grows with the input.
    pub exponent: f64,
    /// c.
    pub coefficient: f64,
    /// The 95% range of E: E ± t × its standard error, t Student's for n - 2 degrees of freedom.
    pub range: (f64, f64),
    /// R² of the line on log-log axes: the share of the spread of `ln y` the line explains.
    pub r_squared: f64,
    /// How many points it was fitted from.
    pub points: usize,
    /// The smallest and largest x fitted.
    pub span: (f64, f64),
    /// The mean of `ln x` and of `ln y` over the points: the line turns about here as E moves
    /// within its range.
    center: (f64, f64),
}

/// Why there is no fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoFit {
    /// Fewer than [`MIN_POINTS`] points.
    TooFewPoints {
        /// How many there were.
        have: usize,
    },
    /// The points span less than [`MIN_SPAN`] in x.
    TooNarrow {
        /// The ratio of the largest x to the smallest.
        span: f64,
    },
}

impl std::fmt::Display for NoFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoFit::TooFewPoints { have } => write!(
                f,
                "{have} size{} above the noise floor, and a fit needs {MIN_POINTS}",
                if *have == 1 { "" } else { "s" }
            ),
            NoFit::TooNarrow { span } => write!(
                f,
                "the sizes above the noise floor span only {span:.1}× in input, and a fit \
                 needs {MIN_SPAN}×"
            ),
        }
    }
}

/// Fits `y = c × x^E` to `points` (x, y), every x and y > 0 (others are left out), by least
/// squares on `ln y` against `ln x`.
pub fn power_law(points: &[(f64, f64)]) -> Result<Fit, NoFit> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = logs.len();
    if n < MIN_POINTS {
        return Err(NoFit::TooFewPoints { have: n });
    }
    let (low, high) = logs
        .iter()
        .fold((f64::MAX, f64::MIN), |(low, high), (x, _)| {
            (low.min(*x), high.max(*x))
        });
    let span = (high - low).exp();
    if span < MIN_SPAN {
        return Err(NoFit::TooNarrow { span });
    }
    let count = n as f64;
    let mean_x = logs.iter().map(|(x, _)| x).sum::<f64>() / count;
    let mean_y = logs.iter().map(|(_, y)| y).sum::<f64>() / count;
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    let syy: f64 = logs.iter().map(|(_, y)| (y - mean_y).powi(2)).sum();
    let exponent = sxy / sxx;
    let intercept = mean_y - exponent * mean_x;
    let residual: f64 = logs
        .iter()
        .map(|(x, y)| (y - intercept - exponent * x).powi(2))
        .sum();
    let r_squared = if syy > 0.0 { 1.0 - residual / syy } else { 1.0 };
    let standard_error = (residual / (count - 2.0) / sxx).sqrt();
    let half = student_t_975(n - 2) * standard_error;
    Ok(Fit {
        exponent,
        coefficient: intercept.exp(),
        range: (exponent - half, exponent + half),
        r_squared,
        points: n,
        span: (low.exp(), high.exp()),
        center: (mean_x, mean_y),
    })
}

impl Fit {
    /// The fitted figure at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.coefficient * x.powf(self.exponent)
    }

    /// The figure at `x` with E at either end of its range, the line turning about the points'
    /// center: the lower and the upper figure.
    pub fn range_at(&self, x: f64) -> (f64, f64) {
        let at = |exponent: f64| (self.center.1 + exponent * (x.ln() - self.center.0)).exp();
        let (a, b) = (at(self.range.0), at(self.range.1));
        (a.min(b), a.max(b))
    }

    /// Half the width of E's range.
    pub fn uncertainty(&self) -> f64 {
        (self.range.1 - self.range.0) / 2.0
    }

    /// The growth's name where the fit makes it clear: E within a name's band and its range
    /// narrow (at most ±0.3). n and n log n are one name: over the span one run measures,
    /// n log n fits as n^1.05 to n^1.15, too near n^1 to tell apart.
    pub fn name(&self) -> Option<&'static str> {
        growth_name(self.exponent, self.uncertainty())
    }
}

/// The name of growth `n^exponent` measured to ± `uncertainty`: `None` when the range is wide
/// (over ±0.3) or E lies between the bands.
pub fn growth_name(exponent: f64, uncertainty: f64) -> Option<&'static str> {
    const BANDS: [(f64, f64, &str); 4] = [
        (-0.5, 0.2, "constant"),
        (0.8, 1.3, "linear or n log n"),
        (1.75, 2.3, "quadratic"),
        (2.7, 3.3, "cubic"),
    ];
    // A NaN uncertainty is no clearer than a wide one.
    if uncertainty.is_nan() || uncertainty > 0.3 {
        return None;
    }
    BANDS
        .iter()
        .find(|(low, high, _)| (*low..=*high).contains(&exponent))
        .map(|(_, _, name)| *name)
}

/// Student's t at 97.5% for `freedom` degrees of freedom (a 95% two-sided range), from the
/// standard tables (1 to 30, then 40, 60, 120 and ∞).
fn student_t_975(freedom: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match freedom {
        0 => f64::INFINITY,
        1..=30 => TABLE[freedom - 1],
        31..=40 => 2.021,
        41..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// The timer's resolution, read from the figures it gave: the coarsest of the usual clock
/// quanta (Windows' 15.625 ms tick, 10, 4 and 1 ms ticks) that every figure is a whole multiple
/// of, or 1 µs (what `wait4` reports in) when none is; with fewer than 4 figures above zero,
/// too few to tell a tick from chance, 1 µs as well.
pub fn timer_resolution(figures: &[Duration]) -> Duration {
    const QUANTA_MICROS: [u64; 4] = [15_625, 10_000, 4_000, 1_000];
    let micros: Vec<u64> = figures
        .iter()
        .map(|d| d.as_micros() as u64)
        .filter(|&m| m > 0)
        .collect();
    if micros.len() < 4 {
        return Duration::from_micros(1);
    }
    QUANTA_MICROS
        .iter()
        .find(|&&q| micros.iter().all(|m| m % q == 0))
        .map_or(Duration::from_micros(1), |&q| Duration::from_micros(q))
}

/// The median of `values` (the mean of the middle two for an even count); 0 for none.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return 0.0;
    }
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// How far repeated figures of one thing stray: the median absolute deviation from their
/// median, scaled by 1.4826 so that it estimates a normal spread's standard deviation while one
/// wild run (a busy machine's hiccup) moves it little. 0 for fewer than two.
pub fn spread(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let middle = median(values);
    let deviations: Vec<f64> = values.iter().map(|v| (v - middle).abs()).collect();
    1.4826 * median(&deviations)
}

/// The timer's noise for figures in seconds: the larger of its resolution and the spread of
/// the same run repeated (the solution's start-up, timed several times).
pub fn noise(resolution: Duration, repeated: &[f64]) -> f64 {
    resolution.as_secs_f64().max(spread(repeated))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SplitMix64 stream of numbers in [0, 1): noise that is the same on every run.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        }
    }

    /// Input sizes as scale's ladder gives them, in bytes: about 50 KB to 5 MB.
    fn xs() -> Vec<f64> {
        [
            1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 79, 100,
        ]
        .iter()
        .map(|s| 50_000.0 * *s as f64)
        .collect()
    }

    #[test]
    fn exact_power_laws_give_their_exponents_exactly() {
        for exponent in [0.5, 1.0, 2.0, 3.0] {
            let points: Vec<(f64, f64)> =
                xs().iter().map(|&x| (x, 3e-9 * x.powf(exponent))).collect();
            let fit = power_law(&points).unwrap();
            assert!((fit.exponent - exponent).abs() < 1e-9, "{fit:?}");
            assert!((fit.coefficient / 3e-9 - 1.0).abs() < 1e-6, "{fit:?}");
            assert!(fit.r_squared > 0.999_999, "{fit:?}");
            assert!(fit.uncertainty() < 1e-6, "{fit:?}");
            assert!((fit.at(1e6) / (3e-9 * 1e6f64.powf(exponent)) - 1.0).abs() < 1e-6);
        }
    }

    /// Each point off by up to ±30% (a busy machine): E still within 0.15 of the truth, its
    /// range holds the truth, and the range is wider than for clean points.
    #[test]
    fn noisy_timings_keep_the_exponent_within_its_range() {
        for (seed, exponent) in [(1, 1.0), (2, 2.0), (3, 1.5), (4, 3.0)] {
            let mut noise = uniform(seed);
            let points: Vec<(f64, f64)> = xs()
                .iter()
                .map(|&x| (x, 1e-9 * x.powf(exponent) * (0.7 + 0.6 * noise())))
                .collect();
            let fit = power_law(&points).unwrap();
            assert!((fit.exponent - exponent).abs() < 0.15, "{fit:?}");
            assert!(
                fit.range.0 <= exponent && exponent <= fit.range.1,
                "{fit:?}"
            );
            assert!(fit.uncertainty() > 0.005, "{fit:?}");
            assert!(fit.r_squared > 0.9, "{fit:?}");
        }
    }

    /// n log n over the span scale measures fits as a little over 1, and is named with n.
    #[test]
    fn n_log_n_is_named_with_linear_and_n_squared_is_quadratic() {
        let fit = |f: &dyn Fn(f64) -> f64| {
            let points: Vec<(f64, f64)> = xs().iter().map(|&x| (x, f(x))).collect();
            power_law(&points).unwrap()
        };
        let n_log_n = fit(&|x| x * x.ln());
        assert!((1.0..1.15).contains(&n_log_n.exponent), "{n_log_n:?}");
        assert_eq!(n_log_n.name(), Some("linear or n log n"));
        let square = fit(&|x| x * x);
        assert_eq!(square.name(), Some("quadratic"));
        let cube = fit(&|x| x * x * x);
        assert_eq!(cube.name(), Some("cubic"));
        assert_eq!(growth_name(1.5, 0.05), None, "between the bands");
        assert_eq!(growth_name(2.0, 0.5), None, "too unsure to name");
    }

    #[test]
    fn too_few_points_or_too_narrow_a_span_is_no_fit() {
        let points = [(1e5, 1.0), (2e5, 4.0), (4e5, 16.0)];
        assert_eq!(
            power_law(&points).unwrap_err(),
            NoFit::TooFewPoints { have: 3 }
        );
        // Zeros and negatives (a figure under the start-up time) are left out, not fitted.
        let with_zeros = [(1e5, 1.0), (2e5, 4.0), (4e5, 16.0), (5e5, 0.0), (6e5, -1.0)];
        assert_eq!(
            power_law(&with_zeros).unwrap_err(),
            NoFit::TooFewPoints { have: 3 }
        );
        let narrow = [(1e5, 1.0), (1.5e5, 2.2), (2e5, 4.0), (2.5e5, 6.3)];
        match power_law(&narrow).unwrap_err() {
            NoFit::TooNarrow { span } => assert!((span - 2.5).abs() < 1e-9),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            NoFit::TooFewPoints { have: 1 }.to_string(),
            "1 size above the noise floor, and a fit needs 4"
        );
    }

    /// The predicted range at a far size widens as E's range does, and holds the prediction.
    #[test]
    fn a_prediction_range_holds_the_prediction() {
        let mut noise = uniform(9);
        let points: Vec<(f64, f64)> = xs()[..8]
            .iter()
            .map(|&x| (x, 1e-11 * x * x * (0.8 + 0.4 * noise())))
            .collect();
        let fit = power_law(&points).unwrap();
        let far = 5e6;
        let (low, high) = fit.range_at(far);
        assert!(
            low < fit.at(far) && fit.at(far) < high,
            "{low} {} {high}",
            fit.at(far)
        );
        let truth = 1e-11 * far * far;
        assert!(low < truth && truth < high, "{low} {truth} {high}");
    }

    #[test]
    fn the_resolution_is_the_tick_every_figure_is_a_multiple_of() {
        let ms = Duration::from_millis;
        let ticks = [ms(0), ms(15), ms(31), ms(46), ms(62)];
        // Windows' 15.625 ms: 15.625, 31.25, 46.875, 62.5 ms.
        let windows: Vec<Duration> = (1..=5).map(|k| Duration::from_micros(15_625 * k)).collect();
        assert_eq!(timer_resolution(&windows), Duration::from_micros(15_625));
        let tens: Vec<Duration> = [10, 20, 50, 70].iter().map(|&m| ms(m)).collect();
        assert_eq!(timer_resolution(&tens), ms(10));
        assert_eq!(timer_resolution(&ticks), ms(1), "whole ms, not 15.625");
        let fine = [
            Duration::from_micros(1_234),
            Duration::from_micros(5_678),
            ms(3),
            ms(4),
        ];
        assert_eq!(timer_resolution(&fine), Duration::from_micros(1));
        assert_eq!(
            timer_resolution(&[ms(10), ms(20)]),
            Duration::from_micros(1),
            "too few to tell"
        );
    }

    #[test]
    fn the_spread_shrugs_off_one_wild_run_and_the_noise_is_at_least_the_resolution() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(spread(&[1.0]), 0.0);
        let calm = spread(&[1.0, 1.1, 0.9, 1.0, 1.05]);
        let one_wild = spread(&[1.0, 1.1, 0.9, 1.0, 9.0]);
        assert!(one_wild < 2.0 * calm.max(0.05), "{calm} {one_wild}");
        assert_eq!(noise(Duration::from_millis(15), &[0.001, 0.001]), 0.015);
        assert!((noise(Duration::from_micros(1), &[0.001, 0.002, 0.003]) - 0.0014826).abs() < 1e-9);
    }
}
