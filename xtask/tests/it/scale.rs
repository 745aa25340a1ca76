//! `cargo xtask scale` on BOJ 1517 (inversions; the generator's SIZE scales n linearly, 5,000 a
//! size): the O(n²) count is fitted as n^2 and TLE at the largest size (exit 1), the O(n log n)
//! count as about n^1 and within the limits there (exit 0), by CPU time, so on a busy machine as
//! on a quiet one; the SVG plot, drawn by headless Chromium where it is installed, shows the
//! points, the fit and the limit line; and a generator that breaks the constraints stops the
//! run at the validator (exit 2). Fixtures: `tests/data/lastmile/` (the inversions) and
//! `tests/data/stress/` (BOJ 1717 with its validator).

use crate::support::{self, edit, listing, run_xtask, text};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The exponent of `CPU time grows as n^E` in a scale report.
fn exponent(stdout: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("CPU time grows as n^"))
        .unwrap_or_else(|| panic!("no fitted growth in\n{stdout}"));
    let after = line.split("n^").nth(1).unwrap();
    let number: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    number.parse().unwrap()
}

/// The SVG path a scale report prints.
fn plot_path(stdout: &str) -> PathBuf {
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("plot: "))
        .unwrap_or_else(|| panic!("no plot path in\n{stdout}"));
    PathBuf::from(line)
}

#[test]
fn a_quadratic_solution_grows_as_n_squared_and_is_tle_at_the_largest_size() {
    let workspace = support::fixture_copy("lastmile", "scale-quadratic");
    let slow = workspace.join("inversions-slow");
    let before = listing(&workspace);
    let args = ["scale", slow.to_str().unwrap(), "--seed", "3"];
    let out = run_xtask("scale-target", &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let e = exponent(&stdout);
    assert!((1.7..=2.3).contains(&e), "n^{e}\n{stdout}");
    // The run stopped at the limit, and the largest size is predicted past it.
    assert!(stdout.contains("  TLE\n"), "{stdout}");
    let outlook = stdout
        .lines()
        .find(|l| l.contains("at size 100 (") && l.contains(" ms "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(outlook.contains(" ms predicted"), "{outlook}");
    assert!(
        outlook.contains("past the limit of 1,000 ms: TLE"),
        "{outlook}"
    );
    assert!(
        stdout.contains("past the limits at the largest size"),
        "{stdout}"
    );
    assert!(stdout.contains("--seed 3"), "{stdout}");
    // Nothing written into the problem: the plot goes to the target folder.
    assert_eq!(listing(&workspace), before);
    let svg = plot_path(&stdout);
    assert!(
        svg.starts_with(support::target_dir("scale-target")),
        "{}",
        svg.display()
    );
    render_with_chromium(&svg);
}

#[test]
fn an_n_log_n_solution_grows_as_about_n_and_is_within_the_limits() {
    let workspace = support::fixture_copy("lastmile", "scale-n-log-n");
    let fast = workspace.join("inversions-fast");
    let args = ["scale", fast.to_str().unwrap(), "--seed", "3"];
    let out = run_xtask("scale-target", &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let e = exponent(&stdout);
    assert!((0.8..=1.35).contains(&e), "n^{e}\n{stdout}");
    // Every size measured, the largest too.
    assert!(stdout.contains("\n   100  "), "{stdout}");
    let outlook = stdout
        .lines()
        .find(|l| l.contains("at size 100 (") && l.contains(" ms "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        outlook.contains(" ms measured, within the limit of 1,000 ms"),
        "{outlook}"
    );
    assert!(
        stdout.contains("within the limits at the largest size"),
        "{stdout}"
    );
    assert!(plot_path(&stdout).is_file());
}

/// A solution that sleeps from some size on is TLE there, killed at the cap on waiting with
/// next to no CPU time: the table's CPU time column says what it used, not ">1,000 ms", and the
/// report says why it was stopped (it waits), as it does for any other failure.
#[test]
fn a_solution_that_waits_is_not_said_to_have_run_past_the_cpu_limit() {
    let workspace = support::fixture_copy("lastmile", "scale-waits");
    let fast = workspace.join("inversions-fast");
    edit(
        &fast.join("src/main.rs"),
        "    println!(\"{}\", sort_counting(&mut numbers));",
        "    if numbers.len() > 20_000 {\n        \
         std::thread::sleep(std::time::Duration::from_secs(30));\n    }\n    \
         println!(\"{}\", sort_counting(&mut numbers));",
    );
    let args = ["scale", fast.to_str().unwrap(), "--seed", "3"];
    let out = run_xtask("scale-target", &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let row = stdout
        .lines()
        .find(|l| l.ends_with("  TLE"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(!row.contains(">1,000 ms"), "{row}\n{stdout}");
    assert!(stdout.contains("so scale stops there"), "{stdout}");
    assert!(stdout.contains("spent waiting"), "{stdout}");
    assert!(!stdout.contains("already ran past"), "{stdout}");
    assert!(stdout.contains("was killed for waiting"), "{stdout}");
}

/// A generator that breaks the constraints one input in eight: scale stops at the validator
/// (exit 2), naming it, its reason, and the seed and size that made the input.
#[test]
fn an_input_the_validator_refuses_stops_scale() {
    let workspace = support::fixture_copy("stress", "scale-refused");
    edit(
        &workspace.join("common/uf-gen.rs"),
        "let n = 1 + size / 8;",
        "let n = if args[0] % 8 == 3 { 0 } else { 1 + size / 8 };",
    );
    let problem = workspace.join("uf-right");
    let before = listing(&workspace);
    let out = run_xtask(
        "scale-refused-target",
        &["scale", problem.to_str().unwrap(), "--seed", "7"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{stderr}", text(&out.stdout));
    assert!(
        stderr.contains("the validator fixture-uf-right-validator refused the input of case"),
        "{stderr}"
    );
    assert!(stderr.contains("n = 0, not in 1..=1000000"), "{stderr}");
    assert!(stderr.contains("(seed "), "{stderr}");
    assert!(stderr.contains("nothing was saved"), "{stderr}");
    assert_eq!(listing(&workspace), before);
}

/// Headless Chromium's picture of the plot: the time panel (the top half) has the limit as a
/// red line across most of a row, the fitted curve in its blue, and the points in theirs.
/// Skipped, saying so, where Chromium is not installed (`apt-get install chromium`).
fn render_with_chromium(svg: &Path) {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        eprintln!("skipped the rendering: no chromium here (apt-get install chromium)");
        return;
    };
    let dir = support::scratch("scale", "chromium");
    let png = dir.join("plot.png");
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=960,1000",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", svg.display()))
        .output()
        .unwrap();
    assert!(png.is_file(), "no screenshot: {}", text(&out.stderr));
    let decoder = png::Decoder::new(fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let (width, height) = (frame.width as usize, frame.height as usize);
    let channels = frame.line_size / width;
    let near = |x: usize, y: usize, colour: [u8; 3]| {
        let at = y * frame.line_size + x * channels;
        (0..3)
            .map(|c| (i32::from(pixels[at + c]) - i32::from(colour[c])).abs())
            .sum::<i32>()
            <= 60
    };
    let (limit, fit, point) = ([0xd6, 0x27, 0x28], [0x1f, 0x77, 0xb4], [0x1f, 0x3b, 0x73]);
    let top = height / 2;
    let count = |colour| {
        (0..top)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| near(x, y, colour))
            .count()
    };
    let widest_red_row = (0..top)
        .map(|y| (0..width).filter(|&x| near(x, y, limit)).count())
        .max()
        .unwrap();
    assert!(
        widest_red_row > width / 2,
        "the limit line: {widest_red_row} px"
    );
    assert!(count(fit) > 300, "the fit: {} px", count(fit));
    assert!(count(point) > 300, "the points: {} px", count(point));
    eprintln!(
        "rendered {} with Chromium: {}",
        svg.display(),
        png.display()
    );
}
