//! Rendering judge reports as text: one line per case (verdict, time, peak memory), details for
//! failures (a `similar` diff with the differing characters highlighted, stderr tails, checker
//! messages) and summary lines, with ANSI colour only when asked for.

use std::fmt::Write as _;
use std::io::Write as _;

use similar::{Algorithm, ChangeTag, DiffTag, TextDiff};

use crate::judge::{
    is_stack_overflow, significant_lines, CaseLimits, CaseReport, Detail, ProblemReport, Verdict,
};
use crate::run::interact::{Side, Transcript};
use crate::run::{self, Exit, TimeUp};
use crate::workspace::problem::MIB;

/// Prints to stdout as a run goes; a closed stdout (`| head`) only stops the printing. The text
/// goes through anstream, as clap's own output does: colours a [`Style`] chose reach a Windows
/// console that needs them turned on, or translated, too.
pub fn emit(text: &str) {
    let mut stdout = anstream::AutoStream::always(std::io::stdout().lock());
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// When to colour: `--color auto|always|never`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal that shows colour and `NO_COLOR` is unset or empty (as clap
    /// decides, through anstream: `CLICOLOR_FORCE` and `TERM=dumb` count too).
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour stdout.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
            }
        }
    }
}

/// How to render: colour or not, and how much of a diff to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours; without them, changed characters are marked with `^` on the next line.
    pub color: bool,
    /// Diff lines shown before the diff is cut.
    pub max_diff_lines: usize,
    /// Characters of one line shown before it is cut.
    pub max_line_chars: usize,
    /// Lines of stderr or checker messages shown.
    pub max_message_lines: usize,
}

impl Style {
    /// No colour, default sizes (what snapshots and pipes get).
    pub fn plain() -> Style {
        Style {
            color: false,
            max_diff_lines: 40,
            max_line_chars: 160,
            max_message_lines: 10,
        }
    }

    /// Default sizes, with colour as `choice` decides.
    pub fn new(choice: ColorChoice) -> Style {
        Style {
            color: choice.enabled(),
            ..Style::plain()
        }
    }

    fn paint(&self, codes: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{codes}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn verdict(&self, verdict: Verdict) -> String {
        let code = format!("{:<3}", verdict.code());
        let colour = match verdict {
            Verdict::Ac => "1;32",
            Verdict::Wa | Verdict::Pe | Verdict::Re => "1;31",
            Verdict::Tle | Verdict::Ole | Verdict::Mle => "1;33",
            Verdict::Je => "1;35",
        };
        self.paint(colour, &code)
    }

    /// The first line of a problem's block: name, samples, judge, limits (the stack too when
    /// it is not the memory limit, or the system cuts it).
    pub fn header(&self, report: &ProblemReport) -> String {
        let limits = &report.limits;
        let mut stack = String::new();
        if limits.stack != limits.memory {
            stack = format!(" · stack {} MB", limits.stack / MIB);
        }
        let given = limits.stack_given;
        if given < limits.stack {
            stack = format!(
                " · stack {} MB (this system's most; {} MB asked)",
                given / MIB,
                limits.stack / MIB
            );
        }
        format!(
            "{}  {} sample{} · {} · {} ms CPU · {} MB{stack}\n",
            self.paint("1", &report.problem),
            report.sample_names.len(),
            if report.sample_names.len() == 1 {
                ""
            } else {
                "s"
            },
            report.judge,
            limits.time.as_millis(),
            limits.memory / MIB,
        )
    }

    /// One case: its line, then what is wrong, if anything.
    pub fn case(&self, report: &ProblemReport, case: &CaseReport) -> String {
        let width = report
            .sample_names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(1);
        let mut out = format!(
            "  {:<width$}  {}  {}  {:>9}\n",
            case.name,
            self.verdict(case.verdict),
            time(case),
            memory(case.peak_memory),
        );
        let limits = &report.limits;
        if let Detail::Interaction {
            solution,
            transcript,
            interactor,
            interactor_stderr,
            solution_stderr,
        } = &case.detail
        {
            match case.verdict {
                Verdict::Tle => {
                    let why = overtime(case, limits, *solution);
                    let _ = writeln!(
                        out,
                        "    {why}; the interactor was killed with it. {}",
                        who_waited(transcript)
                    );
                }
                Verdict::Wa => {
                    // A solution that ended with an error is still WA when the interactor
                    // rejects it first, but its end may be why.
                    let ended = match solution {
                        Exit::Code(0) => String::new(),
                        other => format!("; the solution ended with {other}"),
                    };
                    self.message(
                        &mut out,
                        &format!("wrong answer: the interactor rejected it ({interactor}){ended}"),
                        interactor_stderr,
                    );
                    // How it ended, in its own words (a panic's message and place).
                    if !ended.is_empty() && !solution_stderr.trim().is_empty() {
                        self.message(&mut out, "the solution's stderr", solution_stderr);
                    }
                }
                Verdict::Re => {
                    let title = crash_title(solution, solution_stderr, limits);
                    self.message(&mut out, &title, solution_stderr)
                }
                _ => self.message(
                    &mut out,
                    &format!("the interactor itself failed ({interactor}), so this is no verdict"),
                    interactor_stderr,
                ),
            }
            self.transcript(&mut out, transcript);
            hints(&mut out, case);
            return out;
        }
        match (case.verdict, &case.detail) {
            (Verdict::Tle, Detail::Overtime { killed }) => {
                let exit = killed.map_or(Exit::Code(0), Exit::TimedOut);
                let _ = writeln!(out, "    {}", overtime(case, limits, exit));
            }
            (Verdict::Ole, _) => {
                let _ = writeln!(
                    out,
                    "    stopped after {} bytes of output, the cap (--output-cap to change it)",
                    limits.output_cap
                );
            }
            (Verdict::Mle, _) => {
                let limit = limits.memory / MIB;
                let _ = match case.peak_memory {
                    Some(peak) if peak > limits.memory => writeln!(
                        out,
                        "    peak memory {} is over the limit of {limit} MB",
                        memory(Some(peak))
                    ),
                    _ => writeln!(
                        out,
                        "    the system refused it memory past the limit of {limit} MB"
                    ),
                };
            }
            (_, Detail::Crash { exit, stderr_tail }) => {
                let title = crash_title(exit, stderr_tail, limits);
                self.message(&mut out, &title, stderr_tail);
            }
            (Verdict::Je, Detail::Checker { exit, message }) => {
                let title = format!("the checker itself failed ({exit}), so this is no verdict");
                self.message(&mut out, &title, message);
            }
            (_, Detail::Checker { message, .. }) => {
                self.message(&mut out, "wrong answer: the checker rejected it", message);
            }
            (_, Detail::Float(mismatch)) => {
                let _ = writeln!(out, "    {mismatch}");
            }
            (verdict, Detail::Diff { expected, actual }) => {
                self.diff(&mut out, verdict, expected, actual);
            }
            // Rendered above, with the transcript.
            (_, Detail::None | Detail::Overtime { .. } | Detail::Interaction { .. }) => {}
        }
        hints(&mut out, case);
        out
    }

    /// The last line of a problem's block: `N/M AC` and the slowest case.
    pub fn summary(&self, report: &ProblemReport) -> String {
        if report.cases.is_empty() {
            return format!(
                "{}: no samples yet (add samples/NAME.in and samples/NAME.out)\n",
                report.problem
            );
        }
        let tally = format!("{}/{} AC", report.accepted(), report.cases.len());
        let colour = if report.all_accepted() {
            "1;32"
        } else {
            "1;31"
        };
        let slowest = report.slowest().expect("cases is not empty");
        format!(
            "{}: {} · slowest {} ({})\n",
            report.problem,
            self.paint(colour, &tally),
            slowest.name,
            time(slowest).trim_start()
        )
    }

    /// The line ending a run over several problems.
    pub fn total(&self, reports: &[ProblemReport]) -> String {
        let cases: usize = reports.iter().map(|r| r.cases.len()).sum();
        let accepted: usize = reports.iter().map(|r| r.accepted()).sum();
        let tally = format!("{accepted}/{cases} AC");
        let colour = if accepted == cases { "1;32" } else { "1;31" };
        let slowest = reports
            .iter()
            .flat_map(|r| r.cases.iter().map(move |c| (r, c)))
            .max_by_key(|(_, c)| c.judged_time().0);
        let mut line = format!(
            "total: {} over {} problems",
            self.paint(colour, &tally),
            reports.len()
        );
        if let Some((report, case)) = slowest {
            let _ = write!(
                line,
                " · slowest {}/{} ({})",
                report.problem,
                case.name,
                time(case).trim_start()
            );
        }
        line.push('\n');
        line
    }

    /// What the two sides of an interaction said, oldest first: `>` the solution's lines, `<`
    /// the interactor's.
    fn transcript(&self, out: &mut String, transcript: &Transcript) {
        let shown = transcript.lines.len();
        let total = shown + transcript.cut;
        if total == 0 {
            let _ = writeln!(out, "    transcript: nothing was said");
            return;
        }
        let _ = writeln!(
            out,
            "    transcript ({}> solution, < interactor):",
            if transcript.cut > 0 {
                format!("last {shown} of {total} lines; ")
            } else {
                String::new()
            }
        );
        for (side, line) in &transcript.lines {
            let mark = match side {
                Side::Solution => '>',
                Side::Interactor => '<',
            };
            // As a diff shows them: a control character printed as it is would redraw the
            // terminal (a backspace, an escape sequence) and hide what was really said.
            let line: String = line.chars().map(|c| visible(c, false)).collect();
            let _ = writeln!(out, "    {mark} {}", cut(&line, self.max_line_chars));
        }
    }

    fn message(&self, out: &mut String, title: &str, text: &str) {
        let lines: Vec<&str> = text.trim_end().lines().collect();
        if lines.is_empty() {
            let _ = writeln!(out, "    {title}: (empty)");
            return;
        }
        let shown = &lines[lines.len().saturating_sub(self.max_message_lines)..];
        if shown.len() < lines.len() {
            let _ = writeln!(out, "    {title} (last {} lines):", shown.len());
        } else {
            let _ = writeln!(out, "    {title}:");
        }
        for line in shown {
            let _ = writeln!(out, "    | {}", cut(line, self.max_line_chars));
        }
    }

    /// A line diff of expected (-) against actual (+), over the lines that count (trailing
    /// whitespace and blank lines at the end dropped), with changed characters highlighted
    /// inside changed lines and whitespace made visible where it is the change.
    fn diff(&self, out: &mut String, verdict: Verdict, expected: &[u8], actual: &[u8]) {
        let old: Vec<String> = lossy_lines(expected);
        let new: Vec<String> = lossy_lines(actual);
        let old_refs: Vec<&str> = old.iter().map(String::as_str).collect();
        let new_refs: Vec<&str> = new.iter().map(String::as_str).collect();
        let diff = TextDiff::configure()
            .algorithm(Algorithm::Patience)
            .diff_slices(&old_refs, &new_refs);
        let first = diff
            .ops()
            .iter()
            .find(|op| op.tag() != DiffTag::Equal)
            .map_or(1, |op| op.old_range().start + 1);
        if verdict == Verdict::Pe {
            let _ = writeln!(
                out,
                "    wrong output format: only whitespace differs (BOJ ignores it only at line \
                 ends and after the last line)"
            );
        }
        let _ = writeln!(
            out,
            "    expected (-) vs actual (+), first difference in line {first}:"
        );
        let number_width = old.len().max(new.len()).max(1).to_string().len();
        let mut diff_out = DiffWriter {
            style: self,
            out,
            number_width,
            shown: 0,
            cut: false,
        };
        for (index, group) in diff.grouped_ops(2).iter().enumerate() {
            if index > 0 {
                diff_out.raw(&format!("    {:>number_width$}…", ""));
            }
            for op in group {
                let (tag, olds, news) = op.as_tag_tuple();
                match tag {
                    DiffTag::Equal => {
                        for i in olds {
                            diff_out.line(' ', i + 1, &[(false, old[i].clone())]);
                        }
                    }
                    DiffTag::Delete => {
                        for i in olds {
                            diff_out.line('-', i + 1, &whole(&old[i]));
                        }
                    }
                    DiffTag::Insert => {
                        for i in news {
                            diff_out.line('+', i + 1, &whole(&new[i]));
                        }
                    }
                    DiffTag::Replace => {
                        let pairs = olds.len().max(news.len());
                        for k in 0..pairs {
                            let (o, n) = (olds.start + k, news.start + k);
                            match (olds.contains(&o), news.contains(&n)) {
                                (true, true) => {
                                    let (a, b) = inline_segments(&old[o], &new[n]);
                                    diff_out.line('-', o + 1, &a);
                                    diff_out.line('+', n + 1, &b);
                                }
                                (true, false) => diff_out.line('-', o + 1, &whole(&old[o])),
                                (false, true) => diff_out.line('+', n + 1, &whole(&new[n])),
                                (false, false) => {}
                            }
                        }
                    }
                }
            }
        }
        if diff_out.cut {
            let _ = writeln!(
                out,
                "    … diff cut after {} lines: expected {} bytes in {} lines, actual {} bytes in \
                 {} lines",
                self.max_diff_lines,
                expected.len(),
                old.len(),
                actual.len(),
                new.len()
            );
        }
    }
}

/// Writes diff lines, counting them against the style's limit.
struct DiffWriter<'a> {
    style: &'a Style,
    out: &'a mut String,
    number_width: usize,
    shown: usize,
    cut: bool,
}

impl DiffWriter<'_> {
    fn raw(&mut self, line: &str) {
        if self.shown >= self.style.max_diff_lines {
            self.cut = true;
            return;
        }
        self.shown += 1;
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// One line of the diff: sign, line number, text with emphasised segments.
    fn line(&mut self, sign: char, number: usize, segments: &[(bool, String)]) {
        if self.shown >= self.style.max_diff_lines {
            self.cut = true;
            return;
        }
        let style = self.style;
        let colour = match sign {
            '-' => "31",
            '+' => "32",
            _ => "",
        };
        let changed = sign != ' ';
        let mut text = String::new();
        let mut carets = String::new();
        let mut chars = 0;
        let mut dropped_bytes = 0;
        let mut any_emphasis = false;
        // A changed line that is empty shows its line break, so it cannot look like nothing.
        let empty_line = [(true, String::new())];
        let segments = if changed && segments.iter().all(|(_, s)| s.is_empty()) {
            &empty_line[..]
        } else {
            segments
        };
        for (emphasis, segment) in segments {
            let emphasis = *emphasis && changed;
            let mut piece = String::new();
            let source: Vec<char> = if segment.is_empty() && emphasis {
                vec!['⏎']
            } else {
                segment.chars().collect()
            };
            for c in source {
                if chars >= style.max_line_chars {
                    dropped_bytes += c.len_utf8();
                    continue;
                }
                piece.push(visible(c, emphasis));
                carets.push(if emphasis { '^' } else { ' ' });
                chars += 1;
            }
            any_emphasis |= emphasis;
            if piece.is_empty() {
                continue;
            }
            if emphasis && style.color {
                // Reverse video inside the line's colour.
                let _ = write!(text, "\x1b[7m{piece}\x1b[27m");
            } else {
                text.push_str(&piece);
            }
        }
        if dropped_bytes > 0 {
            let _ = write!(text, " … (+{dropped_bytes} bytes)");
        }
        let prefix = format!("    {sign}{number:>width$} ", width = self.number_width);
        let line = if changed && style.color {
            format!("\x1b[{colour}m{prefix}{text}\x1b[0m")
        } else {
            format!("{prefix}{text}")
        };
        self.shown += 1;
        self.out.push_str(&line);
        self.out.push('\n');
        if any_emphasis && !style.color {
            let pad = " ".repeat(prefix.chars().count());
            let _ = writeln!(self.out, "{pad}{}", carets.trim_end());
        }
    }
}

/// Pieces of a line, each `(emphasised, text)`.
type Segments = Vec<(bool, String)>;

/// A whole line with no counterpart, no character singled out.
fn whole(line: &str) -> Segments {
    vec![(false, line.to_string())]
}

/// Character-level differences between two paired lines, as emphasised segments of each.
fn inline_segments(old: &str, new: &str) -> (Segments, Segments) {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .diff_chars(old, new);
    let mut a: Segments = Vec::new();
    let mut b: Segments = Vec::new();
    let push = |side: &mut Vec<(bool, String)>, emphasis: bool, text: &str| match side.last_mut() {
        Some((e, s)) if *e == emphasis => s.push_str(text),
        _ => side.push((emphasis, text.to_string())),
    };
    for change in diff.iter_all_changes() {
        let text = change.value();
        match change.tag() {
            ChangeTag::Equal => {
                push(&mut a, false, text);
                push(&mut b, false, text);
            }
            ChangeTag::Delete => push(&mut a, true, text),
            ChangeTag::Insert => push(&mut b, true, text),
        }
    }
    (a, b)
}

/// How a character is shown in a diff: control characters always as pictures, tabs as `→`,
/// and spaces as `·` where they are the change.
fn visible(c: char, emphasis: bool) -> char {
    match c {
        '\t' => '→',
        ' ' if emphasis => '·',
        '\r' => '␍',
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('�'),
        '\u{7f}' => '␡',
        c => c,
    }
}

fn lossy_lines(text: &[u8]) -> Vec<String> {
    significant_lines(text)
        .into_iter()
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

fn cut(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((at, _)) => format!("{} … (+{} bytes)", &line[..at], line.len() - at),
        None => line.to_string(),
    }
}

/// The time a verdict went by, named: `  12 ms CPU`, or `  15 ms wall` where the system tells
/// no CPU time.
fn time(case: &CaseReport) -> String {
    let (time, clock) = case.judged_time();
    format!("{:>5} ms {clock:<4}", time.as_millis())
}

/// A case's hints, one line each, after what is wrong.
fn hints(out: &mut String, case: &CaseReport) {
    for hint in &case.hints {
        let _ = writeln!(out, "    {hint}");
    }
}

/// Why a run is TLE, from how it ended (`exit`: the limit it was killed at, if any) and its
/// times.
fn overtime(case: &CaseReport, limits: &CaseLimits, exit: Exit) -> String {
    let limit = limits.time.as_millis();
    let cpu = case.cpu_time.unwrap_or_default().as_millis();
    match (exit, case.cpu_time) {
        (Exit::TimedOut(TimeUp::Cpu), _) => format!(
            "killed when its CPU time reached {} ms, {}% past the limit of {limit} ms (a run \
             that ends by then says how near it came)",
            limits.for_solution().cpu.as_millis(),
            run::NEAR_LIMIT_PERCENT,
        ),
        (Exit::TimedOut(TimeUp::Waiting), _) => format!(
            "killed after {} ms spent waiting, neither running nor waiting for a CPU (the cap: \
             2 × the limit + 1 s), with {cpu} ms of CPU time: it sleeps or waits for input",
            run::idle_cap(limits.time).as_millis(),
        ),
        (Exit::TimedOut(TimeUp::OuterBound), _) => format!(
            "killed at the outer bound of {} ms on the wall clock (20 × the limit) after only \
             {cpu} ms of CPU time: the machine was too busy to run it; judge it again on a \
             quieter one",
            run::outer_bound(limits.time).as_millis(),
        ),
        (Exit::TimedOut(TimeUp::WallCap), _) => format!(
            "killed at the wall-clock cap of {} ms (2 × the limit + 1 s; this system does not \
             tell how long a program waits) after {cpu} ms of CPU time: it sleeps or waits for \
             input, or the machine was too busy to run it",
            run::idle_cap(limits.time).as_millis(),
        ),
        (Exit::TimedOut(TimeUp::WallForCpu), _) => format!(
            "killed at the time limit of {limit} ms on the wall clock (this system tells no CPU \
             time)"
        ),
        (_, Some(cpu)) => format!(
            "its CPU time, {} ms, is over the limit of {limit} ms",
            cpu.as_millis()
        ),
        (_, None) => format!(
            "its time, {} ms on the wall clock (this system tells no CPU time), is over the \
             limit of {limit} ms",
            case.time.as_millis()
        ),
    }
}

/// The first line of a crash's message: how it ended, and whether that was a stack overflow.
fn crash_title(exit: &Exit, stderr: &str, limits: &CaseLimits) -> String {
    if is_stack_overflow(exit, stderr) {
        let given = limits.stack_given;
        let why = if given < limits.stack {
            format!("this system's most; {} MB asked", limits.stack / MIB)
        } else {
            "`stack-limit-mb` sets it; by default the memory limit".to_string()
        };
        format!(
            "{exit}: a stack overflow, past the stack of {} MB ({why}); stderr",
            given / MIB
        )
    } else {
        format!("{exit}; stderr")
    }
}

/// `n` with a comma between each group of three digits: `1,840`.
pub fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A memory figure in MB (MiB, as BOJ's "MB"), or `—` when the system gave none (never a
/// made-up 0).
fn memory(bytes: Option<u64>) -> String {
    match bytes {
        Some(bytes) => format!("{:.1} MB", bytes as f64 / MIB as f64),
        None => "—".to_string(),
    }
}

impl ProblemReport {
    /// The whole block as `cargo xtask test` prints it: header, cases, summary.
    pub fn render(&self, style: &Style) -> String {
        let mut out = style.header(self);
        for case in &self.cases {
            out.push_str(&style.case(self, case));
        }
        out.push_str(&style.summary(self));
        out
    }
}

/// What the transcript says of an interaction that ended with both sides waiting: whose line
/// went unanswered (the unflushed output of a solution is never relayed, so a solution that
/// forgot to flush leaves the interactor's line the last).
fn who_waited(transcript: &Transcript) -> &'static str {
    match transcript.lines.last() {
        Some((Side::Interactor, _)) => {
            "The interactor's last line got no answer: a solution that waits for an answer must \
             flush what it wrote first, and may read no more than it is given"
        }
        Some((Side::Solution, _)) => {
            "The solution's last line got no answer: the interactor waited for more (a line it did \
             not expect, or one without its newline)"
        }
        None => {
            "Nothing was said: each side waited for the other (an interactor that waits before \
             its first line, or a solution that writes nothing it flushes)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_end_names_whose_line_went_unanswered() {
        let said = |lines: &[(Side, &str)]| Transcript {
            lines: lines.iter().map(|(s, l)| (*s, l.to_string())).collect(),
            cut: 0,
        };
        assert!(who_waited(&said(&[(Side::Interactor, "1000000")]))
            .contains("must flush what it wrote first"));
        assert!(
            who_waited(&said(&[(Side::Interactor, "7"), (Side::Solution, "? 4")]))
                .starts_with("The solution's last line got no answer")
        );
        assert!(who_waited(&said(&[])).starts_with("Nothing was said"));
    }

    #[test]
    fn a_transcript_shows_control_characters_as_pictures() {
        // Printed as they were, a backspace or an escape sequence the solution wrote redraws
        // the terminal: `! 5` and two backspaces then `6` showed as `! 6`, the right answer,
        // where the interactor read a line that is not.
        let transcript = Transcript {
            lines: vec![
                (Side::Interactor, "1000000".to_string()),
                (Side::Solution, "! 5\u{8}\u{8}6".to_string()),
                (Side::Solution, "\u{1b}[31mred\u{0}\tend".to_string()),
            ],
            cut: 0,
        };
        let mut out = String::new();
        Style::plain().transcript(&mut out, &transcript);
        assert_eq!(
            out,
            "    transcript (> solution, < interactor):\n    < 1000000\n    > ! 5\u{2408}\u{2408}6\n    \
             > \u{241b}[31mred\u{2400}\u{2192}end\n"
        );
    }
}
