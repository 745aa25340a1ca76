//! From counters to source lines: each counter's block, moved back to its link address, looked
//! up in the instrumented build's debug information (the innermost frame in the problem's own
//! `src/`, so std's and the libraries' code, even inlined, is left out), and the lines no run
//! reached grouped into ranges a person reads.
//!
//! A branch with no code of its own (a bare `return;`, `continue;` or `break;`, a match arm
//! that is only one of them) is a block whose instructions the debug information gives to
//! other lines (the drops at the end of the scope, the loop's head), all of them reached by
//! other blocks: by its lines alone it could never be named. The control-flow table
//! (`server::Table::control_flow`) gives it back its line ([`codeless_branches`]).

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
        let function_of = functions(&table.entries);
        let blocks = Blocks {
            successors: &successors,
            last_lines: &last_lines,
            function_of: &function_of,
        };
        let codeless = codeless_branches(&mut lines, &blocks, |file| {
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
    /// line with code for `reach` (the line of a codeless branch from whose block control
    /// reaches nothing `reach` ran).
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

/// Each counter's function, as a number: the PC table holds a function's blocks together, its
/// entry first.
fn functions(entries: &[bool]) -> Vec<usize> {
    let mut function = 0;
    entries
        .iter()
        .enumerate()
        .map(|(counter, &entry)| {
            if entry && counter > 0 {
                function += 1;
            }
            function
        })
        .collect()
}

/// What the control-flow table and the debug information say of each counter's block.
struct Blocks<'a> {
    /// The counters it goes on to.
    successors: &'a [Vec<usize>],
    /// Its last line in `src/`, the line of the jump that ends it.
    last_lines: &'a [Option<SourceLine>],
    /// Its function ([`functions`]).
    function_of: &'a [usize],
}

/// Gives the branches with no code of their own their lines, in `lines`, and returns those
/// lines, each with the counters its branch's block can go on to.
///
/// A line X with no code that holds a jump (`return`, `continue`, `break`) or a match arm
/// (`=>`) is taken to be a branch's way: the nearest line above it, L, where a block ends in a
/// branch (two successors or more) of a function with code below X (not a `macro_rules!` arm
/// after the function), and the next line with code below it, N. Of that branch's
/// successors, X's is the one with no line from L (excluded) to N: the others go through code
/// there (a match's other arms, the `if`'s way past its block to N). When more than one has
/// none, which is X's is not known, and that branch names nothing; X is given a block only
/// when the branches that end on L name one and the same. `source` reads a file of `src/` as
/// lines.
fn codeless_branches(
    lines: &mut BTreeMap<SourceLine, Vec<usize>>,
    blocks: &Blocks<'_>,
    mut source: impl FnMut(&Path) -> Vec<String>,
) -> BTreeMap<SourceLine, Vec<usize>> {
    use std::ops::Bound::{Excluded, Included, Unbounded};
    let successors = blocks.successors;
    // The last line with code of each function, in each file.
    let mut ends: HashMap<(usize, &Path), u32> = HashMap::new();
    for (line, counters) in lines.iter() {
        for &counter in counters {
            let end = ends
                .entry((blocks.function_of[counter], &line.file))
                .or_default();
            *end = (*end).max(line.line);
        }
    }
    // The blocks that end in a branch, by the line they end on.
    let mut branches: BTreeMap<&SourceLine, Vec<usize>> = BTreeMap::new();
    for (block, last) in blocks.last_lines.iter().enumerate() {
        if let (true, Some(last)) = (successors[block].len() >= 2, last) {
            branches.entry(last).or_default().push(block);
        }
    }
    let mut found: Vec<(SourceLine, usize)> = Vec::new();
    let files: Vec<&PathBuf> = {
        let mut files: Vec<&PathBuf> = lines.keys().map(|line| &line.file).collect();
        files.dedup();
        files
    };
    for file in files {
        let text = source(file);
        for (index, text) in text.iter().enumerate() {
            let here = SourceLine {
                file: file.clone(),
                line: index as u32 + 1,
            };
            if !holds_a_jump(text) || lines.contains_key(&here) {
                continue;
            }
            let Some((&branch, branching)) = branches
                .range::<SourceLine, _>(..&here)
                .next_back()
                .filter(|(line, _)| &line.file == file)
            else {
                continue;
            };
            let Some((next, _)) = lines
                .range((Excluded(&here), Unbounded))
                .next()
                .filter(|(line, _)| &line.file == file)
            else {
                continue;
            };
            let between: Vec<&Vec<usize>> = lines
                .range((Excluded(branch), Included(next)))
                .map(|(_, counters)| counters)
                .collect();
            // Each branch that ends on L with one way apart names it (a call that may unwind
            // ends a block on L too, its two ways both apart: it names nothing).
            let mut taken: Vec<usize> = branching
                .iter()
                .filter(|&&block| {
                    ends.get(&(blocks.function_of[block], file.as_path()))
                        .is_some_and(|&end| here.line < end)
                })
                .filter_map(|&block| {
                    let mut apart: Vec<usize> = successors[block]
                        .iter()
                        .copied()
                        .filter(|&to| {
                            to != block && !between.iter().any(|counters| counters.contains(&to))
                        })
                        .collect();
                    apart.sort_unstable();
                    apart.dedup();
                    match apart[..] {
                        [one] => Some(one),
                        _ => None,
                    }
                })
                .collect();
            taken.sort_unstable();
            taken.dedup();
            if let [taken] = taken[..] {
                found.push((here, taken));
            }
        }
    }
    let mut codeless: BTreeMap<SourceLine, Vec<usize>> = BTreeMap::new();
    for (line, taken) in found {
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

/// Whether a line with no code holds a jump (`return`, `continue`, `break`) or a match arm
/// (`=>`), outside a comment.
fn holds_a_jump(text: &str) -> bool {
    let code = text.split("//").next().unwrap_or_default();
    code.contains("=>")
        || code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| matches!(word, "return" | "continue" | "break"))
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
    fn a_jump_is_return_continue_break_or_a_match_arm() {
        for jump in [
            "return;",
            "continue;",
            "break 'rows;",
            "None => {}",
            "_ => return,",
        ] {
            assert!(holds_a_jump(jump), "{jump}");
        }
        for other in [
            "",
            "  }",
            "} else {",
            "let x;",
            "// return;",
            "x += 1; // break",
            "breaker",
        ] {
            assert!(!holds_a_jump(other), "{other}");
        }
    }

    fn at(line: u32) -> SourceLine {
        SourceLine {
            file: "src/main.rs".into(),
            line,
        }
    }

    /// `lines` of `counters`, and what `codeless_branches` makes of `text` with them.
    fn codeless(
        text: &[&str],
        counters: &[(u32, &[usize])],
        successors: &[Vec<usize>],
        last_lines: &[Option<u32>],
        function_of: &[usize],
    ) -> (
        BTreeMap<SourceLine, Vec<usize>>,
        BTreeMap<SourceLine, Vec<usize>>,
    ) {
        let source = |_: &Path| text.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let last_lines: Vec<Option<SourceLine>> = last_lines.iter().map(|l| l.map(at)).collect();
        let mut lines: BTreeMap<SourceLine, Vec<usize>> = counters
            .iter()
            .map(|&(line, counters)| (at(line), counters.to_vec()))
            .collect();
        let blocks = Blocks {
            successors,
            last_lines: &last_lines,
            function_of,
        };
        let codeless = codeless_branches(&mut lines, &blocks, source);
        (lines, codeless)
    }

    #[test]
    fn a_functions_counters_run_from_its_entry_to_the_next() {
        assert_eq!(
            functions(&[true, false, false, true, true, false]),
            [0, 0, 0, 1, 2, 2]
        );
    }

    /// A loop whose `if` on line 3 continues (block 2, back to the loop's head on line 2), then
    /// a `macro_rules!` arm after the function, before the next function: the arm is no way of
    /// the first function's branch, though it has no code and the branch's nearest.
    #[test]
    fn a_line_past_the_branchs_function_is_not_its_way() {
        let text = [
            "fn f() {",
            "    for x in v {",
            "        if x {",
            "            continue;",
            "        }",
            "        g();",
            "    }",
            "}",
            "macro_rules! m {",
            "    () => {};",
            "}",
            "fn h() { k(); }",
        ];
        let successors = vec![vec![1, 4], vec![2, 3], vec![0], vec![0], vec![], vec![]];
        let (_, found) = codeless(
            &text,
            &[(2, &[0, 2]), (3, &[1]), (6, &[3]), (8, &[4]), (12, &[5])],
            &successors,
            &[Some(2), Some(3), Some(2), Some(6), Some(8), Some(12)],
            &[0, 0, 0, 0, 0, 1],
        );
        assert_eq!(found.keys().collect::<Vec<_>>(), [&at(4)]);
    }

    /// A branch on line 2 to blocks 1 and 2, then a comment and a bare `return;`: the return
    /// is the block that does not go on to line 5; with two such blocks, nobody's.
    #[test]
    fn a_bare_return_is_the_branch_that_skips_the_next_line_with_code() {
        let text = [
            "fn f() {",
            "if x {",
            "    // why",
            "    return;",
            "}",
            "y();",
        ];
        // Block 1 goes on to block 3, which goes on to itself.
        let successors = vec![vec![1, 2], vec![3], vec![], vec![3]];
        let last_lines = [Some(2), Some(6), Some(5), None];
        let (lines, found) = codeless(
            &text,
            &[(2, &[0]), (5, &[2]), (6, &[1, 2])],
            &successors,
            &last_lines,
            &[0; 4],
        );
        assert_eq!(found, [(at(4), vec![3])].into());
        assert_eq!(lines[&at(4)], [1]);
        // Both ways skip line 5: which is the return's is not known.
        let (lines, found) = codeless(
            &text,
            &[(2, &[0]), (5, &[3]), (6, &[1, 2])],
            &successors,
            &last_lines,
            &[0; 4],
        );
        assert!(found.is_empty() && !lines.contains_key(&at(4)));
    }

    /// A match on line 1 whose `Ok` arm (block 1) has code on line 2 and whose `Err` arm
    /// (block 2) is a bare `continue` on line 3: the arm with no line before line 5 is it.
    #[test]
    fn a_bare_continue_in_a_match_arm_is_the_arm_with_no_line() {
        let text = [
            "let x = match t {",
            "    Ok(x) => x,",
            "    Err(_) => continue,",
            "};",
            "push(x);",
        ];
        let successors = vec![vec![1, 2], vec![3], vec![0], vec![0]];
        let (lines, found) = codeless(
            &text,
            &[(1, &[0]), (2, &[1]), (5, &[3])],
            &successors,
            &[Some(1), Some(2), None, Some(5)],
            &[0; 4],
        );
        assert_eq!(found.keys().collect::<Vec<_>>(), [&at(3)]);
        assert_eq!(lines[&at(3)], [2]);
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
