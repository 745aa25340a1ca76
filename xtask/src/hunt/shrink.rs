//! Shrinking a failing input to one a person would write: lines removed, then tokens, then
//! numbers made smaller, the counts kept true ([`Counts::repair`]), every candidate put to the
//! test (the validator first: a candidate it refuses is never judged) and kept only when it
//! still fails and is smaller: fewer tokens, then smaller numbers ([`Input::smallness`]).
//!
//! Removals go as delta debugging does: halves first, then quarters, down to one line or one
//! token, so an input of 8,000 numbers shrinks in a few hundred runs, not thousands. Candidates
//! are tried side by side but taken in one fixed order, so what shrinking finds does not depend
//! on how many run at once.

use std::collections::HashSet;

use anyhow::Result;

use super::counts::Counts;
use super::in_order::in_order;
use super::input::{Input, Place};

/// What a test says of a candidate.
#[derive(Debug, Clone)]
pub enum Judged<T> {
    /// The validator refused it.
    Refused,
    /// It met the constraints and did not fail (or failed otherwise than the input shrunk).
    Passed,
    /// It still fails; what the test found.
    Failed(T),
}

/// What shrinking found: the smallest failing input, what the test said of it, and the runs.
#[derive(Debug, Clone)]
pub struct Shrunk<T> {
    /// The smallest failing input found (the start when nothing smaller failed).
    pub input: Input,
    /// What the test found on it (`None` when it is the start).
    pub found: Option<T>,
    /// Candidates tested.
    pub runs: u64,
}

/// Shrinks `start`, an input that fails, within `budget` runs, `jobs` tests side by side;
/// `test(worker, candidate)` says whether a candidate still fails.
pub fn shrink<T: Send + Clone>(
    start: &Input,
    counts: &Counts,
    jobs: usize,
    budget: u64,
    test: impl Fn(usize, &Input) -> Result<Judged<T>> + Sync,
) -> Result<Shrunk<T>> {
    let mut shrinking = Shrinking {
        best: start.clone(),
        found: None,
        runs: 0,
        budget,
        jobs,
        seen: HashSet::from([start.clone()]),
        test: &test,
    };
    loop {
        let before = shrinking.best.clone();
        shrinking.cut_lines(counts)?;
        shrinking.cut_tokens(counts)?;
        shrinking.lower_numbers(counts)?;
        if shrinking.best == before || shrinking.spent() {
            break;
        }
    }
    Ok(Shrunk {
        input: shrinking.best,
        found: shrinking.found,
        runs: shrinking.runs,
    })
}

type Test<'a, T> = &'a (dyn Fn(usize, &Input) -> Result<Judged<T>> + Sync);

struct Shrinking<'a, T> {
    best: Input,
    found: Option<T>,
    runs: u64,
    budget: u64,
    jobs: usize,
    seen: HashSet<Input>,
    test: Test<'a, T>,
}

impl<T: Send + Clone> Shrinking<'_, T> {
    fn spent(&self) -> bool {
        self.runs >= self.budget
    }

    /// Tests `candidates` in order, those smaller than the best and not seen before, until the
    /// first that fails, which becomes the best; whether one did.
    fn take_first_failing(&mut self, candidates: Vec<Input>) -> Result<bool> {
        let left = self.budget.saturating_sub(self.runs) as usize;
        let fresh: Vec<Input> = candidates
            .into_iter()
            .filter(|c| c.smallness(&self.best).is_lt())
            .filter(|c| self.seen.insert(c.clone()))
            .take(left)
            .collect();
        let mut failed = None;
        let stops = |judged: &Judged<T>| matches!(judged, Judged::Failed(_));
        let mut taken = 0;
        self.runs += in_order(
            &fresh,
            self.jobs,
            |worker, c| (self.test)(worker, c),
            stops,
            |judged| {
                if let Judged::Failed(found) = judged {
                    failed = Some((taken, found.clone()));
                    return false;
                }
                taken += 1;
                true
            },
        )? as u64;
        match failed {
            Some((at, found)) => {
                self.best = fresh[at].clone();
                self.found = Some(found);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Removes runs of lines, halves first, down to single lines.
    fn cut_lines(&mut self, counts: &Counts) -> Result<()> {
        let removable = |input: &Input| {
            (0..input.lines.len())
                .filter(|&l| !counts.holds_fixed(l))
                .collect()
        };
        self.cut(counts, &removable, &|input, line| {
            input.lines.remove(line);
        })
    }

    /// Removes runs of tokens from each line in turn, halves first, down to single tokens.
    fn cut_tokens(&mut self, counts: &Counts) -> Result<()> {
        let mut line = 0;
        while line < self.best.lines.len() && !self.spent() {
            let removable = |input: &Input| match input.lines.get(line) {
                Some(tokens) => (0..tokens.len())
                    .filter(|&token| !counts.is_count(Place { line, token }))
                    .collect(),
                None => Vec::new(),
            };
            self.cut(counts, &removable, &|input, token| {
                input.lines[line].remove(token);
            })?;
            line += 1;
        }
        Ok(())
    }

    /// Delta debugging's cut: of the parts `removable` lists, runs of half of them, then a
    /// quarter, down to one, each run taken out (`remove`, last first) and the counts repaired;
    /// a cut that still fails is kept and tried again at the same length.
    fn cut(
        &mut self,
        counts: &Counts,
        removable: &dyn Fn(&Input) -> Vec<usize>,
        remove: &dyn Fn(&mut Input, usize),
    ) -> Result<()> {
        let mut chunk = (removable(&self.best).len() / 2).max(1);
        while !self.spent() {
            let parts = removable(&self.best);
            if parts.is_empty() {
                break;
            }
            let candidates = parts
                .chunks(chunk)
                .map(|run| {
                    let mut out = self.best.clone();
                    for &part in run.iter().rev() {
                        remove(&mut out, part);
                    }
                    counts.repair(&mut out);
                    out
                })
                .collect();
            if !self.take_first_failing(candidates)? {
                if chunk == 1 {
                    break;
                }
                chunk /= 2;
            }
        }
        Ok(())
    }

    /// Makes each number that is not a count smaller: 0, 1, a smaller number of the input
    /// (keeping values equal), half of it; when none of those fails, the gap between half of
    /// it and it halved ([`Shrinking::halve_the_gap`]), down to one nearer 0.
    fn lower_numbers(&mut self, counts: &Counts) -> Result<()> {
        let places: Vec<Place> = self
            .best
            .numbers()
            .map(|(place, _)| place)
            .filter(|&place| !counts.is_count(place))
            .collect();
        for place in places {
            if self.spent() {
                break;
            }
            let Some(value) = self.best.get(place).and_then(|t| t.number()) else {
                continue;
            };
            // Each smaller value in every place that holds the same value first, so that equal
            // values, which may be the failure, stay equal as they shrink; then here alone.
            let same: Vec<Place> = self
                .best
                .numbers()
                .filter(|&(p, v)| v == value && !counts.is_count(p))
                .map(|(p, _)| p)
                .collect();
            let candidates = smaller_values(value, &self.best)
                .into_iter()
                .flat_map(|smaller| {
                    let mut everywhere = self.best.clone();
                    for &p in &same {
                        everywhere.set(p, smaller);
                    }
                    let mut here = self.best.clone();
                    here.set(place, smaller);
                    [everywhere, here]
                })
                .collect();
            if !self.take_first_failing(candidates)? && value.unsigned_abs() > 2 {
                self.halve_the_gap(place, value)?;
            }
        }
        Ok(())
    }

    /// When nothing on [`smaller_values`]' ladder failed, half of `value` among them, the
    /// failure needs a number at `place` between that half and `value`: halves the gap, so
    /// that a failure past a threshold (a product past 2^32) comes down to the threshold in
    /// about log2(value) runs, where one nearer 0 a run took the whole budget (hack on the
    /// `mul-wrong` fixture: 1000 runs, ending at `9 499999850`, the threshold being at
    /// `9 477218589`).
    fn halve_the_gap(&mut self, place: Place, value: i128) -> Result<()> {
        let (mut passed, mut fails) = (value / 2, value);
        while (fails - passed).abs() > 1 && !self.spent() {
            let middle = passed + (fails - passed) / 2;
            let mut candidate = self.best.clone();
            candidate.set(place, middle);
            if self.take_first_failing(vec![candidate])? {
                fails = middle;
            } else {
                passed = middle;
            }
        }
        Ok(())
    }
}

/// The values tried in place of `value`, smallest first: 0, 1, the input's other numbers of
/// smaller size (at most eight), half of it, and, when that is all there is between (a value
/// of 2 or -2), one nearer 0; each smaller in absolute value. Past those, the gap between
/// half of it and it is halved ([`Shrinking::halve_the_gap`]).
pub fn smaller_values(value: i128, input: &Input) -> Vec<i128> {
    let mut others: Vec<i128> = input
        .numbers()
        .map(|(_, v)| v)
        .filter(|v| v.unsigned_abs() < value.unsigned_abs())
        .collect();
    others.sort_by_key(|v| (v.unsigned_abs(), *v < 0));
    others.dedup();
    let mut values = vec![0, 1];
    values.extend(others.into_iter().take(8));
    values.push(value / 2);
    if value.unsigned_abs() <= 2 {
        values.push(value - value.signum());
    }
    let mut seen = HashSet::new();
    values
        .into_iter()
        .filter(|v| v.unsigned_abs() < value.unsigned_abs() && seen.insert(*v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Input {
        Input::read(text.as_bytes()).unwrap()
    }

    fn text(input: &Input) -> String {
        String::from_utf8(input.write()).unwrap()
    }

    /// `n` then `n` numbers: the counts a generator's inputs show.
    fn array_counts() -> Counts {
        Counts::infer(&[read("3\n5 1 4\n"), read("1\n7\n")])
    }

    /// A "solution" wrong when two numbers of the array are equal, and a "validator" that wants
    /// `n` between 1 and 1000 and numbers from 1 to 10^9: shrinking finds two equal small
    /// numbers, whatever the jobs.
    #[test]
    fn a_failure_on_equal_values_shrinks_to_two_equal_ones() {
        let mut numbers: Vec<String> = (0..2000)
            .map(|i| (i * 7919 % 1_000_000 + 5).to_string())
            .collect();
        numbers[1500] = numbers[300].clone();
        let start = read(&format!("2000\n{}\n", numbers.join(" ")));
        let test = |_: usize, input: &Input| -> Result<Judged<()>> {
            let n = input
                .get(Place { line: 0, token: 0 })
                .and_then(|t| t.number());
            let values: Vec<i128> = input.lines.get(1).map_or(Vec::new(), |l| {
                l.iter().filter_map(|t| t.number()).collect()
            });
            let legal = input.lines.len() == 2
                && n == Some(values.len() as i128)
                && (1..=1000).contains(&values.len())
                && values.iter().all(|v| (1..=1_000_000_000).contains(v));
            if !legal {
                return Ok(Judged::Refused);
            }
            let distinct: HashSet<_> = values.iter().collect();
            Ok(if distinct.len() < values.len() {
                Judged::Failed(())
            } else {
                Judged::Passed
            })
        };
        // 2000 numbers is past the validator's 1000: shrinking starts from what it accepts.
        let start = {
            let mut cut = start.clone();
            cut.lines[1].drain(1000..);
            cut.lines[1][999] = cut.lines[1][300].clone();
            array_counts().repair(&mut cut);
            cut
        };
        let mut found = Vec::new();
        for jobs in [1, 2, 3] {
            let shrunk = shrink(&start, &array_counts(), jobs, 2000, test).unwrap();
            assert_eq!(text(&shrunk.input), "2\n1 1\n", "jobs {jobs}");
            assert!(shrunk.found.is_some());
            found.push(shrunk.runs);
        }
        assert!(found.iter().all(|&r| r == found[0]), "{found:?}");
        assert!(found[0] < 400, "{found:?} runs for 1000 numbers");
    }

    /// A graph problem's "solution" wrong when vertex 1 cannot reach vertex n: shrinking removes
    /// every edge it can, and lowers n to the least the validator allows.
    #[test]
    fn a_failure_on_a_disconnected_graph_shrinks_to_no_edge() {
        let counts = Counts::infer(&[read("3 2\n1 2\n2 3\n"), read("4 1\n1 4\n")]);
        let start = read("5 4\n1 2\n2 3\n4 5\n3 1\n");
        let test = |_: usize, input: &Input| -> Result<Judged<()>> {
            let nums: Vec<Vec<i128>> = input
                .lines
                .iter()
                .map(|l| l.iter().filter_map(|t| t.number()).collect())
                .collect();
            let (n, m) = match nums.first().map(Vec::as_slice) {
                Some(&[n, m]) => (n, m),
                _ => return Ok(Judged::Refused),
            };
            let edges = &nums[1..];
            let legal = n >= 2
                && m as usize == edges.len()
                && edges
                    .iter()
                    .all(|e| e.len() == 2 && e.iter().all(|&v| (1..=n).contains(&v)));
            if !legal {
                return Ok(Judged::Refused);
            }
            let mut reach = vec![false; n as usize + 1];
            reach[1] = true;
            for _ in 0..n {
                for e in edges {
                    let (a, b) = (e[0] as usize, e[1] as usize);
                    if reach[a] || reach[b] {
                        reach[a] = true;
                        reach[b] = true;
                    }
                }
            }
            Ok(if reach[n as usize] {
                Judged::Passed
            } else {
                Judged::Failed(())
            })
        };
        let shrunk = shrink(&start, &counts, 2, 500, test).unwrap();
        assert_eq!(text(&shrunk.input), "2 0\n");
    }

    /// A "solution" wrong once the product of two numbers reaches 2^32 (a `u32` product):
    /// shrinking brings each number down to where the product is just past it, in few runs,
    /// not one step nearer 0 a run.
    #[test]
    fn a_failure_past_a_threshold_comes_down_to_the_threshold_in_few_runs() {
        let start = read("1000000000 9\n");
        let counts = Counts::infer(std::slice::from_ref(&start));
        let test = |_: usize, candidate: &Input| -> Result<Judged<()>> {
            let product: i128 = candidate.numbers().map(|(_, v)| v).product();
            Ok(if product >= 1 << 32 {
                Judged::Failed(())
            } else {
                Judged::Passed
            })
        };
        let shrunk = shrink(&start, &counts, 2, 1000, test).unwrap();
        let numbers: Vec<i128> = shrunk.input.numbers().map(|(_, v)| v).collect();
        let product: i128 = numbers.iter().product();
        assert!(product >= 1 << 32, "{numbers:?}");
        // The first number is the least that fails beside the second.
        assert!(
            numbers[0] * numbers[1] - numbers[1] < 1 << 32,
            "{numbers:?}"
        );
        assert!(shrunk.runs < 200, "{} runs", shrunk.runs);
    }

    #[test]
    fn nothing_smaller_fails_and_the_budget_holds() {
        let start = read("3\n5 1 4\n");
        let never = |_: usize, _: &Input| -> Result<Judged<()>> { Ok(Judged::Passed) };
        let shrunk = shrink(&start, &array_counts(), 2, 10, never).unwrap();
        assert_eq!(shrunk.input, start);
        assert!(shrunk.found.is_none());
        assert_eq!(shrunk.runs, 10);
        let always = |_: usize, _: &Input| -> Result<Judged<u8>> { Ok(Judged::Failed(7)) };
        let shrunk = shrink(&start, &array_counts(), 2, 0, always).unwrap();
        assert_eq!((shrunk.input, shrunk.runs), (start, 0));
    }

    #[test]
    fn smaller_values_come_smallest_first_and_are_smaller() {
        let input = read("9 -3 4 100\n");
        assert_eq!(smaller_values(100, &input), [0, 1, -3, 4, 9, 50]);
        assert_eq!(smaller_values(-7, &input), [0, 1, -3, 4]);
        assert_eq!(smaller_values(-2, &input), [0, 1, -1]);
        assert_eq!(smaller_values(1, &input), [0]);
        assert!(smaller_values(0, &input).is_empty());
    }
}
