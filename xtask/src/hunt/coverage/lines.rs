//! From counters to source lines: each counter's block, moved back to its link address, looked
//! up in the instrumented build's debug information (the innermost frame in the problem's own
//! `src/`, so std's and the libraries' code, even inlined, is left out), and the lines no run
//! reached grouped into ranges a person reads.
//!
//! A branch with no code of its own (a bare `return;`, `continue;` or `break;`) is a block
//! whose instructions the debug information gives to other lines (the drops at the end of the
//! scope, the loop's head), all of them reached by other blocks: by its lines alone it could
//! never be named. The control-flow table (`server::Table::control_flow`) gives it back its
//! line ([`codeless_branches`]).

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use object::{Object, ObjectSymbol};

use super::server::Table;
use super::Reach;

/// A line of the solution's source.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceLine {
    /// The file, relative to the problem's folder (`src/main.rs`).
    pub file: PathBuf,
    /// The line, from 1.
    pub line: u32,
}

/// Which counters stand for which lines of the problem's `src/`.
#[derive(Debug, Clone, Default)]
pub struct LineMap {
    /// Each line with at least one counter, and its counters.
    lines: BTreeMap<SourceLine, Vec<usize>>,
    /// The lines of branches with no code of their own ([`codeless_branches`]), each with the
    /// counters of the blocks its branch's block can go on to ([`onward_from`]). Such a line
    /// counts once a run reached one of those: a block from which control reaches nothing any
    /// run ran is a path of unwinding (a panic's cleanup), not a statement a person wrote.
    codeless: BTreeMap<SourceLine, Vec<usize>>,
    /// The problem's folder.
    dir: PathBuf,
}

/// Lines no run reached, nearby ones together: `first..=last` of `file`, holding `lines`
/// unreached lines and no reached one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// The file, relative to the problem's folder.
    pub file: PathBuf,
    /// The first line.
    pub first: u32,
    /// The last line.
    pub last: u32,
    /// How many lines with code it holds.
    pub lines: usize,
    /// The first line's text, trimmed.
    pub text: String,
}

/// What the runs reached of the solution's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached {
    /// Lines with code in the problem's `src/`.
    pub total: usize,
    /// Of those, the lines some run reached.
    pub reached: usize,
    /// The others, as ranges, in file and line order.
    pub unreached: Vec<Range>,
}

impl LineMap {
    /// Reads the debug information of `exe`, the instrumented build of the problem in `dir`,
    /// whose tables at run time are `table`. A counter stands for every line its block's code
    /// comes from (from its address to the next block's), so a line whose code runs in one
    /// block and panics in another (an `.unwrap()`) is reached when the first is.
    pub fn read(exe: &Path, table: &Table, dir: &Path) -> Result<LineMap> {
        let bias = table.anchor.wrapping_sub(anchor_address(exe)?);
        let loader = addr2line::Loader::new(exe).map_err(|err| {
            anyhow::anyhow!(
                "cannot read the debug information of {}: {err}",
                exe.display()
            )
        })?;
        let src =
            normal(&dunce::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())).join("src");
        let mut blocks: Vec<(u64, usize)> = table
            .pcs
            .iter()
            .enumerate()
            .map(|(counter, &pc)| (pc.wrapping_sub(bias), counter))
            .collect();
        blocks.sort_unstable();
        let mut lines: BTreeMap<SourceLine, Vec<usize>> = BTreeMap::new();
        // Each block's last line in `src/`, the line of the jump that ends it.
        let mut last_lines: Vec<Option<(u64, SourceLine)>> = vec![None; table.pcs.len()];
        for (k, &(start, counter)) in blocks.iter().enumerate() {
            let next = blocks[k + 1..].iter().map(|b| b.0).find(|&pc| pc > start);
            let end = next.unwrap_or(start + 64).min(start + MAX_BLOCK);
            let Ok(locations) = loader.find_location_range(start, end) else {
                continue;
            };
            for (address, _, location) in locations {
                let (Some(file), Some(line)) = (location.file, location.line) else {
                    continue;
                };
                if line == 0 {
                    continue;
                }
                let Ok(relative) = normal(Path::new(file))
                    .strip_prefix(&src)
                    .map(Path::to_path_buf)
                else {
                    continue;
                };
                let source_line = SourceLine {
                    file: Path::new("src").join(relative),
                    line,
                };
                let last = &mut last_lines[counter];
                if last.as_ref().is_none_or(|(at, _)| address >= *at) {
                    *last = Some((address, source_line.clone()));
                }
                let counters = lines.entry(source_line).or_default();
                if counters.last() != Some(&counter) {
                    counters.push(counter);
                }
            }
        }
        let last_lines: Vec<Option<SourceLine>> = last_lines
            .into_iter()
            .map(|last| last.map(|(_, line)| line))
            .collect();
        let successors = successors(table);
        let codeless = codeless_branches(&mut lines, &successors, &last_lines, |file| {
            fs::read_to_string(dir.join(file))
                .unwrap_or_default()
                .lines()
                .map(str::to_string)
                .collect()
        });
        Ok(LineMap {
            lines,
            codeless,
            dir: dir.to_path_buf(),
        })
    }

    /// Whether `reach` reached `line`, whose counters are `counters`; `None` when it is not a
    /// line with code for `reach` (the line of a codeless branch none of whose successors ran).
    fn line_reached(&self, line: &SourceLine, counters: &[usize], reach: &Reach) -> Option<bool> {
        if counters.iter().any(|&c| reach.hit(c)) {
            return Some(true);
        }
        match self.codeless.get(line) {
            Some(onward) if !onward.iter().any(|&c| reach.hit(c)) => None,
            _ => Some(false),
        }
    }

    /// Of the lines with code, how many `reach` reached, and how many there are.
    pub fn reached_lines(&self, reach: &Reach) -> (usize, usize) {
        let (mut reached, mut total) = (0, 0);
        for (line, counters) in &self.lines {
            if let Some(hit) = self.line_reached(line, counters, reach) {
                total += 1;
                reached += usize::from(hit);
            }
        }
        (reached, total)
    }

    /// What `reach` reached: the lines, and those it did not, as ranges.
    pub fn reached(&self, reach: &Reach) -> Reached {
        let mut unreached: Vec<Range> = Vec::new();
        let (mut reached, mut total) = (0, 0);
        let mut open: Option<Range> = None;
        for (line, counters) in &self.lines {
            let Some(hit) = self.line_reached(line, counters, reach) else {
                continue;
            };
            total += 1;
            if hit {
                reached += 1;
                unreached.extend(open.take());
                continue;
            }
            match &mut open {
                Some(range) if range.file == line.file => {
                    range.last = line.line;
                    range.lines += 1;
                }
                _ => {
                    unreached.extend(open.take());
                    open = Some(Range {
                        file: line.file.clone(),
                        first: line.line,
                        last: line.line,
                        lines: 1,
                        text: String::new(),
                    });
                }
            }
        }
        unreached.extend(open);
        let mut sources: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
        for range in &mut unreached {
            let text = sources.entry(range.file.clone()).or_insert_with(|| {
                fs::read_to_string(self.dir.join(&range.file))
                    .unwrap_or_default()
                    .lines()
                    .map(str::to_string)
                    .collect()
            });
            range.text = text
                .get(range.first as usize - 1)
                .map_or(String::new(), |t| t.trim().to_string());
        }
        Reached {
            total,
            reached,
            unreached,
        }
    }
}

/// Each counter's successors, as counters, from the control-flow table (rows of a block, its
/// successors and a 0, the functions it calls and a 0); blocks with no counter are left out.
fn successors(table: &Table) -> Vec<Vec<usize>> {
    let counter_of: HashMap<u64, usize> = table
        .pcs
        .iter()
        .enumerate()
        .map(|(counter, &pc)| (pc, counter))
        .collect();
    let mut successors = vec![Vec::new(); table.pcs.len()];
    let mut words = table.control_flow.iter().copied();
    while let Some(block) = words.next() {
        let next: Vec<usize> = words
            .by_ref()
            .take_while(|&word| word != 0)
            .filter_map(|word| counter_of.get(&word).copied())
            .collect();
        words.by_ref().take_while(|&word| word != 0).for_each(drop);
        if let Some(&counter) = counter_of.get(&block) {
            successors[counter] = next;
        }
    }
    successors
}

/// Gives the branches with no code of their own their lines, in `lines`, and returns those
/// lines, each with the counters its branch's block can go on to.
///
/// A block that ends in a branch (two successors or more) on line L, followed in its file by
/// lines with no code before the next line with code, N: the first of those that holds a
/// statement (a bare `return;`, `continue;`, a match arm's pattern; not a brace, an `else` or
/// a comment) is the line of the one successor whose lines do not include N (the others go on
/// to N, as the `if`'s way past its block does). When more than one does, which is which is
/// not known, and nothing is given. `source` reads a file of `src/` as lines.
fn codeless_branches(
    lines: &mut BTreeMap<SourceLine, Vec<usize>>,
    successors: &[Vec<usize>],
    last_lines: &[Option<SourceLine>],
    mut source: impl FnMut(&Path) -> Vec<String>,
) -> BTreeMap<SourceLine, Vec<usize>> {
    use std::ops::Bound::{Excluded, Unbounded};
    let mut texts: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    let mut codeless: BTreeMap<SourceLine, Vec<usize>> = BTreeMap::new();
    for (block, onward) in successors.iter().enumerate() {
        let (true, Some(branch)) = (onward.len() >= 2, &last_lines[block]) else {
            continue;
        };
        let Some((next, next_counters)) = lines
            .range((Excluded(branch), Unbounded))
            .next()
            .filter(|(line, _)| line.file == branch.file)
        else {
            continue;
        };
        let text = texts
            .entry(branch.file.clone())
            .or_insert_with(|| source(&branch.file));
        let Some(statement) = (branch.line + 1..next.line).find(|&line| {
            text.get(line as usize - 1)
                .is_some_and(|text| holds_a_statement(text))
        }) else {
            continue;
        };
        let mut apart: Vec<usize> = onward
            .iter()
            .copied()
            .filter(|&to| to != block && !next_counters.contains(&to))
            .collect();
        apart.sort_unstable();
        apart.dedup();
        let [taken] = apart[..] else {
            continue;
        };
        let line = SourceLine {
            file: branch.file.clone(),
            line: statement,
        };
        codeless
            .entry(line.clone())
            .or_default()
            .extend(onward_from(taken, successors));
        lines.entry(line).or_default().push(taken);
    }
    for counters in lines.values_mut().chain(codeless.values_mut()) {
        counters.sort_unstable();
        counters.dedup();
    }
    codeless
}

/// The blocks control can go on to from `block`, however far (within its function): a bare
/// `return;` goes through the drops of the scopes it leaves to the function's return, which
/// every run that returned reached; the cleanup of a panic reaches nothing a run without one
/// did.
fn onward_from(block: usize, successors: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; successors.len()];
    let mut stack = successors[block].clone();
    let mut onward = Vec::new();
    while let Some(next) = stack.pop() {
        if std::mem::replace(&mut seen[next], true) {
            continue;
        }
        onward.push(next);
        stack.extend(&successors[next]);
    }
    onward
}

/// Whether a line with no code holds a statement: something besides braces, brackets,
/// punctuation, `else` and comments.
fn holds_a_statement(text: &str) -> bool {
    let text = text.trim();
    if text.starts_with("//") || text.starts_with("/*") || text.starts_with('*') {
        return false;
    }
    let words = text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''));
    words
        .filter(|word| !word.is_empty())
        .any(|word| word != "else")
}

/// The most code a block is taken to span: past it, the code is not the block's (a function
/// of std, uninstrumented, between two of ours).
const MAX_BLOCK: u64 = 4096;

/// `path` with its `.` and `..` taken out as written (a `#[path = "../common/x.rs"]` module
/// of `src/main.rs` is not in `src/`).
fn normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The link address of the runtime's `__sanitizer_cov_pcs_init` in `exe` (a leading `_` on
/// Mach-O), whose run-time address the runtime reports.
fn anchor_address(exe: &Path) -> Result<u64> {
    let bytes = fs::read(exe).with_context(|| format!("cannot read {}", exe.display()))?;
    let file = object::File::parse(&*bytes)
        .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", exe.display()))?;
    file.symbols()
        .chain(file.dynamic_symbols())
        .find(|symbol| {
            matches!(
                symbol.name(),
                Ok("__sanitizer_cov_pcs_init" | "___sanitizer_cov_pcs_init")
            )
        })
        .map(|symbol| symbol.address())
        .with_context(|| {
            format!(
                "{} has no __sanitizer_cov_pcs_init: not an instrumented build",
                exe.display()
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(lines: &[(&str, u32, &[usize])]) -> LineMap {
        LineMap {
            lines: lines
                .iter()
                .map(|&(file, line, counters)| {
                    (
                        SourceLine {
                            file: file.into(),
                            line,
                        },
                        counters.to_vec(),
                    )
                })
                .collect(),
            codeless: BTreeMap::new(),
            dir: PathBuf::from("/nowhere"),
        }
    }

    #[test]
    fn a_statement_is_more_than_braces_else_and_comments() {
        for statement in ["return;", "continue;", "break 'rows;", "None => {}", "x"] {
            assert!(holds_a_statement(statement), "{statement}");
        }
        for nothing in [
            "",
            "  }",
            "} else {",
            "else {",
            "});",
            "// return;",
            "/* x */",
            "* x",
        ] {
            assert!(!holds_a_statement(nothing), "{nothing}");
        }
    }

    /// A branch on line 2 to blocks 1 and 2, then lines 3 and 4 with no code: the statement on
    /// 4 is the block that does not go on to line 5; with two such blocks, nobody's.
    #[test]
    fn a_codeless_line_is_the_branch_that_skips_the_next_line() {
        let line = |line| SourceLine {
            file: "src/main.rs".into(),
            line,
        };
        let text = [
            "fn f() {",
            "if x {",
            "    // why",
            "    return;",
            "}",
            "y();",
        ];
        let source = |_: &Path| text.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let last_lines = vec![Some(line(2)), Some(line(6)), Some(line(5)), None];
        let mut lines: BTreeMap<SourceLine, Vec<usize>> = [
            (line(2), vec![0]),
            (line(5), vec![2]),
            (line(6), vec![1, 2]),
        ]
        .into();
        // Block 1 goes on to block 3, which goes on to itself.
        let successors = vec![vec![1, 2], vec![3], vec![], vec![3]];
        let codeless = codeless_branches(&mut lines, &successors, &last_lines, source);
        assert_eq!(codeless, [(line(4), vec![3])].into());
        assert_eq!(lines[&line(4)], [1]);
        // Both ways skip line 5: which is the statement's is not known.
        let mut lines: BTreeMap<SourceLine, Vec<usize>> = [
            (line(2), vec![0]),
            (line(5), vec![3]),
            (line(6), vec![1, 2]),
        ]
        .into();
        let codeless = codeless_branches(&mut lines, &successors, &last_lines, source);
        assert!(codeless.is_empty() && !lines.contains_key(&line(4)));
    }

    #[test]
    fn paths_are_taken_as_written_without_dots() {
        assert_eq!(
            normal(Path::new("/w/p/src/../../common/uf.rs")),
            Path::new("/w/common/uf.rs")
        );
        assert_eq!(
            normal(Path::new("/w/p/./src/main.rs")),
            Path::new("/w/p/src/main.rs")
        );
    }

    #[test]
    fn unreached_lines_group_until_a_reached_line_or_another_file() {
        let map = map(&[
            ("src/main.rs", 3, &[0]),
            ("src/main.rs", 5, &[1]),
            ("src/main.rs", 9, &[2, 3]),
            ("src/main.rs", 10, &[4]),
            ("src/main.rs", 14, &[5]),
            ("src/util.rs", 1, &[6]),
            ("src/util.rs", 2, &[7]),
        ]);
        let mut reach = Reach::new(8);
        reach.add(&[1, 0, 0, 7, 0, 2, 0, 0]);
        let got = map.reached(&reach);
        assert_eq!((got.total, got.reached), (7, 3));
        let spans: Vec<(String, u32, u32, usize)> = got
            .unreached
            .iter()
            .map(|r| (r.file.display().to_string(), r.first, r.last, r.lines))
            .collect();
        // Line 9 was reached by one of its two counters.
        assert_eq!(
            spans,
            [
                ("src/main.rs".to_string(), 5, 5, 1),
                ("src/main.rs".to_string(), 10, 10, 1),
                ("src/util.rs".to_string(), 1, 2, 2)
            ]
        );
        assert_eq!(map.reached_lines(&reach), (3, 7));
    }
}
