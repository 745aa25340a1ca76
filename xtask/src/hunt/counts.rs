//! The counts of an input: the numbers that say how many tokens or lines follow (`n` before
//! `n` numbers, `m` before `m` edges, `k` at the head of a line of `k` numbers), inferred from
//! the inputs the generator writes and the samples, and kept true when an alteration or
//! shrinking removes or repeats tokens and lines.
//!
//! A count is inferred only when it holds in every example and takes at least two values among
//! them, so a number that equals a length once by chance is not taken for one.

use std::collections::BTreeSet;
use std::fmt;

use super::input::{Input, Place, Token};

/// What a count counts, in the input it is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Measure {
    /// The tokens of one line (from 0).
    TokensOnLine(usize),
    /// The lines after one line (from 0), to the end of the input.
    LinesAfter(usize),
    /// The tokens of every line after one line (from 0), to the end of the input.
    TokensAfter(usize),
}

impl Measure {
    /// Its value in `input`, when the lines it names are there.
    pub fn of(self, input: &Input) -> Option<usize> {
        let lines = &input.lines;
        match self {
            Measure::TokensOnLine(line) => lines.get(line).map(Vec::len),
            Measure::LinesAfter(line) => (line < lines.len()).then(|| lines.len() - line - 1),
            Measure::TokensAfter(line) => {
                (line < lines.len()).then(|| lines[line + 1..].iter().map(Vec::len).sum())
            }
        }
    }

    /// The measures a number on `line` may be: the lines just after it, first the nearest.
    fn candidates(line: usize) -> [Measure; 6] {
        [
            Measure::TokensOnLine(line + 1),
            Measure::LinesAfter(line),
            Measure::TokensOnLine(line + 2),
            Measure::LinesAfter(line + 1),
            Measure::TokensAfter(line),
            Measure::LinesAfter(line + 2),
        ]
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Measure::TokensOnLine(line) => write!(f, "the tokens of line {}", line + 1),
            Measure::LinesAfter(line) => write!(f, "the lines after line {}", line + 1),
            Measure::TokensAfter(line) => write!(f, "the tokens after line {}", line + 1),
        }
    }
}

/// One count: a number at a fixed place that equals a measure of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Where the number is.
    pub place: Place,
    /// What it counts.
    pub measure: Measure,
}

/// The counts of a problem's inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Numbers at fixed places.
    pub fixed: Vec<Count>,
    /// From this line on (from 0), each line is `k` then `k` tokens.
    pub heads_from: Option<usize>,
}

/// The lines whose numbers may be counts: a count sits in a header, near the top.
const HEADER_LINES: usize = 6;

impl Counts {
    /// The counts that hold in every one of `examples` (the generator's inputs, the samples)
    /// and take at least two values among them.
    pub fn infer(examples: &[Input]) -> Counts {
        let Some(first) = examples.first() else {
            return Counts::default();
        };
        let mut fixed = Vec::new();
        let mut measured = BTreeSet::new();
        for (place, _) in first.numbers().filter(|(p, _)| p.line < HEADER_LINES) {
            let holds = |measure: Measure| {
                let mut values = BTreeSet::new();
                let every = examples.iter().all(|example| {
                    let (Some(value), Some(length)) = (
                        example.get(place).and_then(Token::number),
                        measure.of(example),
                    ) else {
                        return false;
                    };
                    values.insert(value);
                    value == length as i128
                });
                every && values.len() >= 2
            };
            let found = Measure::candidates(place.line)
                .into_iter()
                .find(|&m| !measured.contains(&m) && holds(m));
            if let Some(measure) = found {
                measured.insert(measure);
                fixed.push(Count { place, measure });
            }
        }
        let heads_from = (0..3).find(|&from| {
            let mut values = BTreeSet::new();
            let every = examples.iter().all(|example| {
                let heads: Vec<_> = example.lines.iter().skip(from).collect();
                !heads.is_empty()
                    && heads.iter().all(|line| {
                        let head = line.first().and_then(Token::number);
                        values.extend(head);
                        head == Some(line.len() as i128 - 1)
                    })
            });
            every && values.len() >= 2
        });
        Counts { fixed, heads_from }
    }

    /// Whether the token at `place` is a count (an alteration leaves it to [`Counts::repair`]).
    pub fn is_count(&self, place: Place) -> bool {
        self.fixed.iter().any(|c| c.place == place)
            || self
                .heads_from
                .is_some_and(|from| place.line >= from && place.token == 0)
    }

    /// Whether `line` holds a count at a fixed place (such a line is not removed or repeated).
    pub fn holds_fixed(&self, line: usize) -> bool {
        self.fixed.iter().any(|c| c.place.line == line)
    }

    /// Sets every count of `input` to what it counts now.
    pub fn repair(&self, input: &mut Input) {
        for count in &self.fixed {
            let is_number = input.get(count.place).and_then(Token::number).is_some();
            if let (true, Some(length)) = (is_number, count.measure.of(input)) {
                input.set(count.place, length as i128);
            }
        }
        if let Some(from) = self.heads_from {
            for line in input.lines.iter_mut().skip(from) {
                let length = line.len() as i128 - 1;
                if let Some(head @ Token::Number(_)) = line.first_mut() {
                    *head = Token::Number(length);
                }
            }
        }
    }

    /// Whether no count was found.
    pub fn is_empty(&self) -> bool {
        self.fixed.is_empty() && self.heads_from.is_none()
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut said: Vec<String> = self
            .fixed
            .iter()
            .map(|c| format!("{} = {}", c.place, c.measure))
            .collect();
        if let Some(from) = self.heads_from {
            said.push(format!(
                "each line from line {} = the tokens after it on its line",
                from + 1
            ));
        }
        if said.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&said.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Input {
        Input::read(text.as_bytes()).unwrap()
    }

    fn infer(texts: &[&str]) -> Counts {
        Counts::infer(&texts.iter().map(|t| read(t)).collect::<Vec<_>>())
    }

    fn at(line: usize, token: usize) -> Place {
        Place { line, token }
    }

    #[test]
    fn n_before_a_line_of_n_numbers() {
        let counts = infer(&["3\n5 1 4\n", "1\n7\n", "5\n1 1 1 2 2\n"]);
        assert_eq!(
            counts.fixed,
            [Count {
                place: at(0, 0),
                measure: Measure::TokensOnLine(1)
            }]
        );
        assert_eq!(counts.to_string(), "line 1 token 1 = the tokens of line 2");
        let mut altered = read("3\n5 4\n");
        counts.repair(&mut altered);
        assert_eq!(altered.write(), b"2\n5 4\n");
    }

    #[test]
    fn n_m_then_m_edges_and_n_is_not_a_count() {
        let counts = infer(&[
            "4 3\n1 2\n2 3\n3 4\n",
            "2 1\n1 2\n",
            "5 5\n1 2\n2 3\n3 4\n4 5\n5 1\n",
        ]);
        assert_eq!(
            counts.fixed,
            [Count {
                place: at(0, 1),
                measure: Measure::LinesAfter(0)
            }]
        );
        assert!(counts.is_count(at(0, 1)) && !counts.is_count(at(0, 0)));
        assert!(counts.holds_fixed(0) && !counts.holds_fixed(1));
        let mut altered = read("4 3\n1 2\n3 4\n");
        counts.repair(&mut altered);
        assert_eq!(altered.write(), b"4 2\n1 2\n3 4\n");
    }

    #[test]
    fn an_array_then_its_queries() {
        let counts = infer(&[
            "3\n1 2 3\n2\n1 2\n2 3\n",
            "2\n5 6\n1\n1 1\n",
            "4\n1 1 1 1\n3\n1 4\n2 2\n3 4\n",
        ]);
        assert_eq!(
            counts.fixed,
            [
                Count {
                    place: at(0, 0),
                    measure: Measure::TokensOnLine(1)
                },
                Count {
                    place: at(2, 0),
                    measure: Measure::LinesAfter(2)
                }
            ]
        );
    }

    #[test]
    fn a_count_of_numbers_over_several_lines() {
        let counts = infer(&["5\n1 2 3\n4 5\n", "2\n1\n2\n", "3\n1 2\n3\n"]);
        assert_eq!(
            counts.fixed,
            [Count {
                place: at(0, 0),
                measure: Measure::TokensAfter(0)
            }]
        );
    }

    #[test]
    fn adjacency_lists_with_their_length_at_the_head_of_each_line() {
        let counts = infer(&["3\n2 5 6\n0\n1 9\n", "2\n3 1 2 3\n1 4\n"]);
        assert_eq!(counts.heads_from, Some(1));
        assert!(counts.is_count(at(2, 0)) && !counts.is_count(at(2, 1)));
        let mut altered = read("2\n2 5\n1 9 9\n");
        counts.repair(&mut altered);
        assert_eq!(altered.write(), b"2\n1 5\n2 9 9\n");
    }

    #[test]
    fn a_number_equal_to_a_length_by_chance_or_always_the_same_is_not_a_count() {
        // 2 equals the tokens of line 2 in the first example only.
        assert!(infer(&["2\n5 6\n", "2\n5 6 7\n"]).is_empty());
        // Always 3 with 3 numbers: nothing tells it from a fixed format.
        assert!(infer(&["3\n1 2 3\n", "3\n4 5 6\n"]).is_empty());
        assert!(Counts::infer(&[]).is_empty());
        assert_eq!(Counts::default().to_string(), "none");
    }

    #[test]
    fn repair_leaves_a_count_that_is_no_longer_a_number_alone() {
        let counts = infer(&["3\n1 2 3\n", "1\n7\n"]);
        let mut odd = read("x\n1 2\n");
        counts.repair(&mut odd);
        assert_eq!(odd.write(), b"x\n1 2\n");
        let mut short = read("3\n");
        counts.repair(&mut short);
        assert_eq!(short.write(), b"3\n");
    }
}
