//! From counters to source lines: each counter's block, moved back to its link address, looked
//! up in the instrumented build's debug information (the innermost frame in the problem's own
//! `src/`, so std's and the libraries' code, even inlined, is left out), and the lines no run
//! reached grouped into ranges a person reads.

use std::collections::BTreeMap;
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
        for (k, &(start, counter)) in blocks.iter().enumerate() {
            let next = blocks[k + 1..].iter().map(|b| b.0).find(|&pc| pc > start);
            let end = next.unwrap_or(start + 64).min(start + MAX_BLOCK);
            let Ok(locations) = loader.find_location_range(start, end) else {
                continue;
            };
            for (_, _, location) in locations {
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
                let counters = lines
                    .entry(SourceLine {
                        file: Path::new("src").join(relative),
                        line,
                    })
                    .or_default();
                if counters.last() != Some(&counter) {
                    counters.push(counter);
                }
            }
        }
        Ok(LineMap {
            lines,
            dir: dir.to_path_buf(),
        })
    }

    /// How many lines of the source have counters.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line of the source has a counter.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The lines some counter of `reach` was hit in.
    pub fn reached_lines(&self, reach: &Reach) -> usize {
        self.lines
            .values()
            .filter(|counters| counters.iter().any(|&c| reach.hit(c)))
            .count()
    }

    /// What `reach` reached: the lines, and those it did not, as ranges.
    pub fn reached(&self, reach: &Reach) -> Reached {
        let mut unreached: Vec<Range> = Vec::new();
        let mut reached = 0;
        let mut open: Option<Range> = None;
        for (line, counters) in &self.lines {
            if counters.iter().any(|&c| reach.hit(c)) {
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
            total: self.lines.len(),
            reached,
            unreached,
        }
    }
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
            dir: PathBuf::from("/nowhere"),
        }
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
        assert_eq!(map.reached_lines(&reach), 3);
    }
}
