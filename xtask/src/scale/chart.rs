//! A small chart of CPU time against the input's bytes for the terminal, log-log like the SVG
//! plot: each size measured as `o` (fitted) or `.` (under the noise) or `X` (failed), the fit
//! as `·`, the limit as a row of `─`, the largest size's prediction as `P`. Plain text, one
//! character a cell, for those who would rather not open a file.

use super::{Estimate, Growth, Measured};
use crate::report::thousands;

/// The plotting area's columns and rows.
pub const WIDTH: usize = 56;
/// See [`WIDTH`].
pub const HEIGHT: usize = 12;

/// The chart's lines, each ending in a newline, indented by two spaces.
pub fn time_chart(
    measured: &Measured,
    growth: &Growth,
    at_largest: Estimate,
    limit_seconds: f64,
) -> String {
    let ms = |seconds: f64| seconds * 1000.0;
    let largest = measured.largest.1.max(1) as f64;
    let points: Vec<(f64, f64, char)> = measured
        .sizes
        .iter()
        .zip(&growth.fitted)
        .map(|(size, &fitted)| {
            let mark = match (size.failed.is_some(), fitted) {
                (true, _) => 'X',
                (false, true) => 'o',
                (false, false) => '.',
            };
            (size.bytes as f64, ms(size.time().as_secs_f64()), mark)
        })
        .collect();
    let prediction = match at_largest {
        Estimate::Predicted(value, _) => Some(ms(value)),
        _ => None,
    };
    let limit = ms(limit_seconds);
    let x_low = points.iter().map(|p| p.0).fold(largest, f64::min).max(1.0);
    let x_high = largest.max(x_low * 2.0);
    let ys = points
        .iter()
        .map(|p| p.1)
        .chain([limit])
        .chain(prediction)
        .filter(|y| *y > 0.0);
    let (y_low, y_high) = ys.fold((f64::MAX, f64::MIN), |(l, h), y| (l.min(y), h.max(y)));
    let (y_low, y_high) = (y_low.max(1e-3) / 1.5, y_high * 1.5);
    let column = |x: f64| -> usize {
        let at = (x / x_low).ln() / (x_high / x_low).ln();
        ((at * (WIDTH - 1) as f64).round().max(0.0) as usize).min(WIDTH - 1)
    };
    let row = |y: f64| -> Option<usize> {
        if y <= 0.0 {
            return None;
        }
        let at = (y / y_low).ln() / (y_high / y_low).ln();
        let from_top = ((1.0 - at) * (HEIGHT - 1) as f64).round();
        (0.0..HEIGHT as f64)
            .contains(&from_top)
            .then_some(from_top as usize)
    };
    let mut grid = vec![vec![' '; WIDTH]; HEIGHT];
    if let Ok(fit) = &growth.fit {
        let curve = (0..WIDTH).filter_map(|c| {
            let x = x_low * (x_high / x_low).powf(c as f64 / (WIDTH - 1) as f64);
            let r = row(ms(growth.base + fit.at(x)))?;
            (x >= fit.span.0).then_some((r, c))
        });
        for (r, c) in curve {
            grid[r][c] = '·';
        }
    }
    if let Some(r) = row(limit) {
        for cell in grid[r].iter_mut() {
            if *cell == ' ' {
                *cell = '─';
            }
        }
    }
    for &(x, y, mark) in &points {
        if let Some(r) = row(y) {
            grid[r][column(x)] = mark;
        }
    }
    if let Some(r) = prediction.and_then(row) {
        grid[r][column(largest)] = 'P';
    }
    let label = |y: f64| format!("{} ms", short_ms(y));
    let mut out = String::new();
    for (r, cells) in grid.iter().enumerate() {
        let y = y_low * (y_high / y_low).powf(1.0 - r as f64 / (HEIGHT - 1) as f64);
        let tick = if r == 0 || r == HEIGHT - 1 || row(limit) == Some(r) {
            label(if row(limit) == Some(r) { limit } else { y })
        } else {
            String::new()
        };
        let line: String = cells.iter().collect();
        out.push_str(&format!("  {tick:>10} │{}\n", line.trim_end()));
    }
    out.push_str(&format!("  {:>10} └{}\n", "", "─".repeat(WIDTH)));
    let left = super::plot::bytes_label(x_low);
    let right = super::plot::bytes_label(x_high);
    out.push_str(&format!(
        "  {:>10}  {left}{}{right}  (input, log scale)\n",
        "",
        " ".repeat(WIDTH.saturating_sub(left.len() + right.len()))
    ));
    out.push_str(&format!(
        "  {:>10}  o fitted  . under the noise  X failed  · fit  ─ limit{}\n",
        "",
        if prediction.is_some() {
            "  P predicted"
        } else {
            ""
        }
    ));
    out
}

/// A time in ms as reports and ticks show it: `0.42`, `9.6`, `38`, `1,840`.
pub fn short_ms(ms: f64) -> String {
    if ms >= 100.0 {
        thousands(ms.round() as u128)
    } else if ms >= 10.0 {
        format!("{ms:.0}")
    } else if ms >= 1.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::{analyse, tests::quadratic};

    #[test]
    fn the_chart_shows_the_points_the_fit_the_limit_and_the_prediction() {
        let measured = quadratic();
        let analysis = analyse(&measured);
        let chart = time_chart(&measured, &analysis.time, analysis.time_at_largest, 1.0);
        let lines: Vec<&str> = chart.lines().collect();
        assert_eq!(lines.len(), HEIGHT + 3, "{chart}");
        let grid: String = lines[..HEIGHT]
            .iter()
            .map(|l| l.split('│').nth(1).unwrap_or(""))
            .collect();
        assert_eq!(grid.matches('o').count(), 7, "{chart}");
        assert_eq!(grid.matches('X').count(), 1, "{chart}");
        assert_eq!(grid.matches('P').count(), 1, "{chart}");
        assert!(grid.contains('·'), "{chart}");
        let limit_row = lines
            .iter()
            .find(|l| l.contains("1,000 ms"))
            .unwrap_or_else(|| panic!("{chart}"));
        assert!(limit_row.matches('─').count() > WIDTH / 2, "{limit_row}");
        // The prediction is on the top row (100 s is the highest figure), at the right edge.
        assert!(lines[0].trim_end().ends_with('P'), "{chart}");
    }
}
