//! The scale run drawn as an SVG file: CPU time, and below it peak memory, against the input's
//! bytes on log-log axes, each with its limit as a line, the sizes measured as points (filled
//! where fitted, hollow where under the noise, a cross where the run failed), the fitted curve
//! over them (dashed past the last size fitted) and the largest size's prediction with its
//! range. Drawn by plotters' SVG backend into a string; nothing here writes a file.

use std::fmt::Display;

use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Analysis, Estimate, Growth, Measured, Size};
use crate::judge::CaseLimits;
use crate::report::thousands;
use crate::workspace::problem::MIB;

/// The picture's size in pixels.
pub const SIZE: (u32, u32) = (960, 1000);

/// Colours: points and the fit, the limit, what was not fitted.
const POINT: RGBColor = RGBColor(0x1f, 0x3b, 0x73);
const FIT: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
const LIMIT: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const UNFITTED: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// The SVG text of the plot of `problem`'s scale run.
pub fn svg(
    problem: &str,
    measured: &Measured,
    analysis: &Analysis,
    limits: &CaseLimits,
) -> Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (top, bottom) = root.split_vertically(SIZE.1 / 2);
        let clock = measured.clock;
        let time = Panel {
            caption: format!("{problem}: {clock} time against the input"),
            axis: format!("{clock} time (ms)"),
            unit: "ms",
            to_unit: 1000.0,
            growth: &analysis.time,
            figure: &|s: &Size| Some(s.time().as_secs_f64()),
            spread: &|s: &Size| {
                let (low, high) = s.time_range();
                Some((low.as_secs_f64(), high.as_secs_f64()))
            },
            limit: limits.time.as_secs_f64(),
            at_largest: analysis.time_at_largest,
        };
        time.draw(&top, measured).map_err(plot_error)?;
        let memory = Panel {
            caption: format!("{problem}: peak memory against the input"),
            axis: "peak memory (MB)".to_string(),
            unit: "MB",
            to_unit: 1.0 / MIB as f64,
            growth: &analysis.memory,
            figure: &|s: &Size| s.memory().map(|m| m as f64),
            spread: &|_| None,
            limit: limits.memory as f64,
            at_largest: analysis.memory_at_largest,
        };
        memory.draw(&bottom, measured).map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(text)
}

fn plot_error(err: impl Display) -> anyhow::Error {
    anyhow!("cannot draw the plot: {err}")
}

/// One panel: a figure against the input's bytes.
struct Panel<'a> {
    caption: String,
    axis: String,
    unit: &'static str,
    /// The figure's unit per figure (1000 ms a second, 1/MiB MB a byte).
    to_unit: f64,
    growth: &'a Growth,
    figure: &'a dyn Fn(&Size) -> Option<f64>,
    /// The fastest and slowest run, where there were several.
    spread: &'a dyn Fn(&Size) -> Option<(f64, f64)>,
    limit: f64,
    at_largest: Estimate,
}

type PlotResult = std::result::Result<(), Box<dyn std::error::Error>>;

impl Panel<'_> {
    fn draw(&self, area: &DrawingArea<SVGBackend<'_>, Shift>, measured: &Measured) -> PlotResult {
        let unit = |figure: f64| figure * self.to_unit;
        let points: Vec<(f64, f64, bool, bool)> = measured
            .sizes
            .iter()
            .zip(&self.growth.fitted)
            .filter_map(|(size, &fitted)| {
                let y = (self.figure)(size)?;
                Some((size.bytes as f64, unit(y), fitted, size.failed.is_some()))
            })
            .collect();
        let largest = measured.largest.1.max(1) as f64;
        let prediction = match self.at_largest {
            Estimate::Predicted(value, (low, high)) => Some((unit(value), unit(low), unit(high))),
            _ => None,
        };
        let smallest = points.iter().map(|p| p.0).fold(largest, f64::min);
        let x_range = (smallest / 1.6)..(largest * 1.6);
        let mut ys: Vec<f64> = points.iter().map(|p| p.1).collect();
        ys.push(unit(self.limit));
        if let Some((value, low, high)) = prediction {
            ys.extend([value, low, high]);
        }
        let (low, high) = ys
            .iter()
            .filter(|y| **y > 0.0 && y.is_finite())
            .fold((f64::MAX, f64::MIN), |(l, h), y| (l.min(*y), h.max(*y)));
        let y_range = (low / 3.0).max(1e-6)..(high * 3.0);

        let mut chart = ChartBuilder::on(area)
            .caption(&self.caption, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(84)
            .build_cartesian_2d(x_range.clone().log_scale(), y_range.log_scale())?;
        chart
            .configure_mesh()
            .x_desc("input size (bytes)")
            .y_desc(self.axis.as_str())
            .x_label_formatter(&|x| bytes_label(*x))
            .y_label_formatter(&|y| figure_label(*y))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;

        let limit = unit(self.limit);
        let limit_style = LIMIT.stroke_width(2);
        chart
            .draw_series(LineSeries::new(
                [(x_range.start, limit), (x_range.end, limit)],
                limit_style,
            ))?
            .label(format!("limit: {} {}", figure_label(limit), self.unit))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], limit_style));

        if let Ok(fit) = &self.growth.fit {
            let base = self.growth.base;
            let curve = move |from: f64, to: f64| {
                (0..=64).map(move |i| {
                    let x = from * (to / from).powf(f64::from(i) / 64.0);
                    (x, (base + fit.at(x)) * self.to_unit)
                })
            };
            let fit_style = FIT.stroke_width(2);
            chart
                .draw_series(LineSeries::new(curve(fit.span.0, fit.span.1), fit_style))?
                .label(format!(
                    "fit: n^{:.2} (R² {:.3}), dashed past the last size fitted",
                    fit.exponent, fit.r_squared
                ))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], fit_style));
            if fit.span.1 < largest {
                chart.draw_series(DashedLineSeries::new(
                    curve(fit.span.1, largest),
                    8,
                    5,
                    fit_style,
                ))?;
            }
        }

        // The spread of each size's runs, then its point.
        chart.draw_series(measured.sizes.iter().filter_map(|size| {
            let (low, high) = (self.spread)(size)?;
            let x = size.bytes as f64;
            Some(PathElement::new(
                [(x, unit(low)), (x, unit(high))],
                POINT.stroke_width(1),
            ))
        }))?;
        if points.iter().any(|p| p.2) {
            chart
                .draw_series(
                    points
                        .iter()
                        .filter(|p| p.2)
                        .map(|&(x, y, _, _)| Circle::new((x, y), 5, POINT.filled())),
                )?
                .label(if self.growth.fit.is_ok() {
                    "a size measured (median of its runs), fitted"
                } else {
                    "a size above the noise floor (too few to fit)"
                })
                .legend(|(x, y)| Circle::new((x + 12, y), 5, POINT.filled()));
        }
        if points.iter().any(|p| !p.2 && !p.3) {
            chart
                .draw_series(
                    points
                        .iter()
                        .filter(|p| !p.2 && !p.3)
                        .map(|&(x, y, _, _)| Circle::new((x, y), 5, UNFITTED.stroke_width(2))),
                )?
                .label("a size under the noise floor, not fitted")
                .legend(|(x, y)| Circle::new((x + 12, y), 5, UNFITTED.stroke_width(2)));
        }
        let failed: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| p.3)
            .map(|&(x, y, _, _)| (x, y))
            .collect();
        if !failed.is_empty() {
            chart
                .draw_series(
                    failed
                        .iter()
                        .map(|&point| Cross::new(point, 7, LIMIT.stroke_width(3))),
                )?
                .label("the size that failed (stopped there)")
                .legend(|(x, y)| Cross::new((x + 12, y), 7, LIMIT.stroke_width(3)));
        }
        if let Some((value, low, high)) = prediction {
            chart.draw_series([PathElement::new(
                [(largest, low), (largest, high)],
                FIT.stroke_width(2),
            )])?;
            chart
                .draw_series([TriangleMarker::new((largest, value), 8, FIT.filled())])?
                .label(format!(
                    "size {} predicted: {} {}",
                    measured.largest.0.size,
                    figure_label(value),
                    self.unit
                ))
                .legend(|(x, y)| TriangleMarker::new((x + 12, y), 8, FIT.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font(("sans-serif", 15))
            .draw()?;
        Ok(())
    }
}

/// An axis label for a number of bytes: `512 B`, `48 KB`, `4.8 MB`.
pub fn bytes_label(bytes: f64) -> String {
    if bytes >= 1e6 {
        format!("{} MB", short(bytes / 1e6))
    } else if bytes >= 1e3 {
        format!("{} KB", short(bytes / 1e3))
    } else {
        format!("{} B", short(bytes))
    }
}

/// An axis label for a figure in its unit: `0.5`, `12`, `1,840`.
pub fn figure_label(value: f64) -> String {
    if value >= 1000.0 {
        thousands(value.round() as u128)
    } else {
        short(value)
    }
}

/// Two significant digits at most, no trailing zeros: `4.8`, `48`, `0.25`.
fn short(value: f64) -> String {
    if value >= 100.0 {
        format!("{}", value.round())
    } else if value >= 10.0 {
        format!("{:.0}", value)
    } else if value >= 1.0 {
        trim(format!("{:.1}", value))
    } else {
        trim(format!("{:.2}", value))
    }
}

fn trim(text: String) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::analyse;
    use crate::scale::tests::{limits, quadratic};

    /// The file is one SVG document with both panels: every size's point (fitted filled,
    /// the failed one a cross), the limit line in its colour, the fit curve and its dashed
    /// extrapolation, the prediction, and the legend's words.
    #[test]
    fn the_plot_is_an_svg_with_the_points_the_fit_and_the_limit() {
        let measured = quadratic();
        let analysis = analyse(&measured);
        let svg = svg("boj-1517", &measured, &analysis, &limits()).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(
            svg.contains(r#"width="960" height="1000""#),
            "{}",
            &svg[..200]
        );
        for words in [
            "boj-1517: CPU time against the input",
            "boj-1517: peak memory against the input",
            "limit: 1,000 ms",
            "limit: 256 MB",
            "fit: n^2.00",
            "size 100 predicted: ",
            "the size that failed",
            "input size (bytes)",
        ] {
            assert!(svg.contains(words), "no {words:?} in the SVG");
        }
        let colour = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        assert!(svg.contains(&colour(LIMIT)), "the limit's colour");
        assert!(svg.contains(&colour(FIT)), "the fit's colour");
        // Seven fitted points and their legend mark, at least.
        let circles = svg.matches("<circle").count();
        assert!(circles > 7, "{circles} circles");
        assert!(svg.contains("stroke-dasharray") || svg.matches("<polyline").count() >= 4);
    }

    #[test]
    fn labels_read_as_people_write_figures() {
        assert_eq!(bytes_label(512.0), "512 B");
        assert_eq!(bytes_label(48_000.0), "48 KB");
        assert_eq!(bytes_label(4_800_000.0), "4.8 MB");
        assert_eq!(figure_label(0.25), "0.25");
        assert_eq!(figure_label(12.0), "12");
        assert_eq!(figure_label(1840.4), "1,840");
        assert_eq!(figure_label(2.0), "2");
    }
}
