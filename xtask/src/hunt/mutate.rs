//! The alterations a competitive programmer makes to a case by hand, as hack makes them: a
//! number set to another number of the input (equal values; half the time one of its column),
//! to a neighbour (±1) or to a bound (half the time the least or greatest the validator
//! allows, [`super::ranges`]; else the least or greatest seen, half the time in its column); a
//! line or a token removed or repeated. Counts are never altered themselves: after each
//! alteration [`Counts::repair`] sets them to what they count, so `n` follows the numbers and
//! `m` the edges. Whether the result meets the problem's constraints is the validator's to
//! say.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::counts::Counts;
use super::input::{Column, Input, Place, Rng, Token};
use super::ranges::Ranges;

/// One kind of alteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Alteration {
    /// A number set to another number of the input: equal values.
    SameAsAnother,
    /// A number set to one more or one less.
    Neighbour,
    /// A number set to a bound: the least or greatest value the validator allows there, or
    /// the least or greatest seen in its column or in any input, or 0 or 1.
    Bound,
    /// A line removed.
    RemoveLine,
    /// A line repeated, the copy just after it.
    RepeatLine,
    /// A token removed.
    RemoveToken,
    /// A token repeated, the copy just after it.
    RepeatToken,
}

impl Alteration {
    /// Every kind, in a fixed order.
    pub const ALL: [Alteration; 7] = [
        Alteration::SameAsAnother,
        Alteration::Neighbour,
        Alteration::Bound,
        Alteration::RemoveLine,
        Alteration::RepeatLine,
        Alteration::RemoveToken,
        Alteration::RepeatToken,
    ];
}

impl fmt::Display for Alteration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Alteration::SameAsAnother => "a number set to another of the input",
            Alteration::Neighbour => "a number set to a neighbour",
            Alteration::Bound => "a number set to a bound",
            Alteration::RemoveLine => "a line removed",
            Alteration::RepeatLine => "a line repeated",
            Alteration::RemoveToken => "a token removed",
            Alteration::RepeatToken => "a token repeated",
        })
    }
}

/// What alterations know of a problem's inputs: their counts, and the bounds of their numbers.
#[derive(Debug, Clone, Default)]
pub struct Alterer {
    counts: Counts,
    /// The least and greatest numbers seen, with 0 and 1, that are not counts.
    bounds: Vec<i128>,
    /// The least and greatest numbers seen in each column ([`Place::column`]).
    columns: BTreeMap<Column, (i128, i128)>,
    /// The least and greatest numbers the validator allows, where they were probed.
    legal: Ranges,
}

impl Alterer {
    /// Alterations for inputs like `examples` (the generator's, the samples), whose counts
    /// are `counts`, and whose numbers the validator allows in `legal`.
    pub fn new(counts: Counts, examples: &[Input], legal: Ranges) -> Alterer {
        let values: Vec<(Place, i128)> = examples
            .iter()
            .flat_map(|input| {
                input
                    .numbers()
                    .filter(|(place, _)| !counts.is_count(*place))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut bounds: BTreeSet<i128> = [0, 1].into();
        bounds.extend(values.iter().map(|v| v.1).min());
        bounds.extend(values.iter().map(|v| v.1).max());
        let mut columns: BTreeMap<Column, (i128, i128)> = BTreeMap::new();
        for &(place, value) in &values {
            let seen = columns.entry(place.column()).or_insert((value, value));
            *seen = (seen.0.min(value), seen.1.max(value));
        }
        Alterer {
            counts,
            bounds: bounds.into_iter().collect(),
            columns,
            legal,
        }
    }

    /// The counts kept true.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// `input` altered once by `kind`, its counts repaired; `None` when `input` has nothing to
    /// alter that way, or the alteration changes nothing.
    pub fn alter(&self, input: &Input, kind: Alteration, rng: &mut Rng) -> Option<Input> {
        let mut out = input.clone();
        let numbers: Vec<(Place, i128)> = input
            .numbers()
            .filter(|(place, _)| !self.counts.is_count(*place))
            .collect();
        match kind {
            Alteration::SameAsAnother | Alteration::Neighbour | Alteration::Bound => {
                let &(place, value) = numbers.get(rng.below(numbers.len().max(1)))?;
                // Half the time from the same column: what its constraints most likely allow.
                let same_column: Vec<i128> = numbers
                    .iter()
                    .filter(|(p, _)| p.column() == place.column())
                    .map(|&(_, v)| v)
                    .collect();
                let new = match kind {
                    Alteration::SameAsAnother if rng.one_in(2) => {
                        same_column[rng.below(same_column.len())]
                    }
                    Alteration::SameAsAnother => numbers.get(rng.below(numbers.len()))?.1,
                    Alteration::Neighbour if rng.one_in(2) => value.checked_add(1)?,
                    Alteration::Neighbour => value.checked_sub(1)?,
                    // Half the time an end of what the validator allows, where it was
                    // probed; else half the time an end of what its column holds.
                    _ => {
                        let ends = match (self.legal.of(place), self.columns.get(&place.column())) {
                            (Some(legal), _) if rng.one_in(2) => Some(legal),
                            (_, Some(&seen)) if rng.one_in(2) => Some(seen),
                            _ => None,
                        };
                        match ends {
                            Some((least, _)) if rng.one_in(2) => least,
                            Some((_, most)) => most,
                            None => self.bounds[rng.below(self.bounds.len())],
                        }
                    }
                };
                out.set(place, new);
            }
            Alteration::RemoveLine | Alteration::RepeatLine => {
                let lines: Vec<usize> = (0..input.lines.len())
                    .filter(|&l| !self.counts.holds_fixed(l))
                    .collect();
                let &line = lines.get(rng.below(lines.len().max(1)))?;
                if kind == Alteration::RemoveLine {
                    out.lines.remove(line);
                } else {
                    out.lines.insert(line + 1, input.lines[line].clone());
                }
            }
            Alteration::RemoveToken | Alteration::RepeatToken => {
                let places: Vec<Place> = input
                    .lines
                    .iter()
                    .enumerate()
                    .flat_map(|(line, tokens)| {
                        (0..tokens.len()).map(move |token| Place { line, token })
                    })
                    .filter(|&place| !self.counts.is_count(place))
                    .collect();
                let &place = places.get(rng.below(places.len().max(1)))?;
                let line = &mut out.lines[place.line];
                if kind == Alteration::RemoveToken {
                    line.remove(place.token);
                } else {
                    let copy: Token = line[place.token].clone();
                    line.insert(place.token + 1, copy);
                }
            }
        }
        self.counts.repair(&mut out);
        (out != *input).then_some(out)
    }

    /// `input` altered by one to four alterations (one half the time, two a quarter, ...: each
    /// more is one more chance to break the constraints) of kinds drawn from `rng`, each kind as
    /// likely as `tally` says; `None` when none changed it.
    pub fn alter_some(
        &self,
        input: &Input,
        rng: &mut Rng,
        tally: &Tally,
    ) -> Option<(Input, Vec<Alteration>)> {
        let times = 1 + (rng.bits() | 1 << 3).trailing_zeros() as usize;
        let mut current = input.clone();
        let mut done = Vec::new();
        for _ in 0..times {
            let kind = tally.draw(rng);
            if let Some(next) = self.alter(&current, kind, rng) {
                current = next;
                done.push(kind);
            }
        }
        (!done.is_empty()).then_some((current, done))
    }
}

/// How often inputs made with each kind of alteration met the constraints: each kind is drawn
/// as often as its share of inputs the validator passed, `(passed + 1) / (made + 2)`, so a
/// kind that always breaks a problem's format (a token removed from a line of three) soon
/// fades, and one that works comes up more.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    made: [u64; Alteration::ALL.len()],
    passed: [u64; Alteration::ALL.len()],
}

impl Tally {
    /// Counts an input made with `kinds`, which the validator passed or not.
    pub fn count(&mut self, kinds: &[Alteration], passed: bool) {
        for kind in kinds {
            let i = Alteration::ALL.iter().position(|k| k == kind).unwrap_or(0);
            self.made[i] += 1;
            self.passed[i] += u64::from(passed);
        }
    }

    /// Each kind's weight, in parts per million.
    fn weights(&self) -> [u64; Alteration::ALL.len()] {
        std::array::from_fn(|i| (self.passed[i] + 1) * 1_000_000 / (self.made[i] + 2))
    }

    /// A kind, drawn by weight.
    pub fn draw(&self, rng: &mut Rng) -> Alteration {
        let weights = self.weights();
        let total: u64 = weights.iter().sum();
        let mut at = rng.bits() % total.max(1);
        for (kind, weight) in Alteration::ALL.iter().zip(weights) {
            if at < weight {
                return *kind;
            }
            at -= weight;
        }
        Alteration::ALL[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hunt::ranges;

    fn read(text: &str) -> Input {
        Input::read(text.as_bytes()).unwrap()
    }

    /// Every result of `kind` on `input` over many draws, written back.
    fn results(alterer: &Alterer, input: &str, kind: Alteration) -> BTreeSet<String> {
        let input = read(input);
        let mut rng = Rng::new(3);
        (0..400)
            .filter_map(|_| alterer.alter(&input, kind, &mut rng))
            .map(|out| String::from_utf8(out.write()).unwrap())
            .collect()
    }

    /// `n` then `n` numbers, as a generator writes them.
    fn array_problem() -> Alterer {
        let examples = [read("3\n5 1 4\n"), read("1\n7\n"), read("4\n9 9 2 8\n")];
        Alterer::new(Counts::infer(&examples), &examples, Ranges::default())
    }

    #[test]
    fn a_number_set_to_another_of_the_input_makes_equal_values() {
        let got = results(&array_problem(), "3\n5 1 4\n", Alteration::SameAsAnother);
        let want: BTreeSet<String> = [
            "3\n1 1 4\n",
            "3\n4 1 4\n",
            "3\n5 5 4\n",
            "3\n5 4 4\n",
            "3\n5 1 5\n",
            "3\n5 1 1\n",
        ]
        .map(String::from)
        .into();
        // The count 3 is never a number it copies or alters.
        assert_eq!(got, want);
    }

    #[test]
    fn a_number_set_to_a_neighbour_or_a_bound() {
        let alterer = array_problem();
        let got = results(&alterer, "2\n5 4\n", Alteration::Neighbour);
        let want: BTreeSet<String> = ["2\n6 4\n", "2\n4 4\n", "2\n5 5\n", "2\n5 3\n"]
            .map(String::from)
            .into();
        assert_eq!(got, want);
        // The bounds: 0, 1, and the least (1) and greatest (9) numbers seen.
        let got = results(&alterer, "1\n5\n", Alteration::Bound);
        let want: BTreeSet<String> = ["1\n0\n", "1\n1\n", "1\n9\n"].map(String::from).into();
        assert_eq!(got, want);
    }

    #[test]
    fn a_number_set_to_a_bound_the_validator_allows() {
        let examples = [read("3\n5 1 4\n"), read("1\n7\n"), read("4\n9 9 2 8\n")];
        let counts = Counts::infer(&examples);
        // n, then n numbers from 1 to 10^9.
        let legal = ranges::probe(&examples[0], &counts, 1, |_, input| {
            Ok(input
                .numbers()
                .skip(1)
                .all(|(_, v)| (1..=1_000_000_000).contains(&v)))
        })
        .unwrap();
        let alterer = Alterer::new(counts, &examples, legal);
        let got = results(&alterer, "1\n5\n", Alteration::Bound);
        // As before, with the greatest the validator allows; its least is the least seen.
        let want: BTreeSet<String> = ["1\n0\n", "1\n1\n", "1\n9\n", "1\n1000000000\n"]
            .map(String::from)
            .into();
        assert_eq!(got, want);
    }

    #[test]
    fn a_token_removed_or_repeated_keeps_the_count() {
        let alterer = array_problem();
        let got = results(&alterer, "2\n5 4\n", Alteration::RemoveToken);
        let want: BTreeSet<String> = ["1\n4\n", "1\n5\n"].map(String::from).into();
        assert_eq!(got, want);
        let got = results(&alterer, "2\n5 4\n", Alteration::RepeatToken);
        let want: BTreeSet<String> = ["3\n5 5 4\n", "3\n5 4 4\n"].map(String::from).into();
        assert_eq!(got, want);
    }

    #[test]
    fn a_line_removed_or_repeated_keeps_the_count_and_the_header() {
        let examples = [read("3 2\n1 2\n2 3\n"), read("4 3\n1 2\n2 3\n3 4\n")];
        let alterer = Alterer::new(Counts::infer(&examples), &examples, Ranges::default());
        let got = results(&alterer, "3 2\n1 2\n2 3\n", Alteration::RemoveLine);
        let want: BTreeSet<String> = ["3 1\n2 3\n", "3 1\n1 2\n"].map(String::from).into();
        assert_eq!(got, want);
        let got = results(&alterer, "3 2\n1 2\n2 3\n", Alteration::RepeatLine);
        let want: BTreeSet<String> = ["3 3\n1 2\n1 2\n2 3\n", "3 3\n1 2\n2 3\n2 3\n"]
            .map(String::from)
            .into();
        assert_eq!(got, want);
    }

    #[test]
    fn a_kind_the_validator_keeps_refusing_is_drawn_less() {
        let mut tally = Tally::default();
        for _ in 0..200 {
            tally.count(&[Alteration::RemoveToken], false);
            tally.count(&[Alteration::SameAsAnother], true);
        }
        let mut rng = Rng::new(9);
        let drawn: Vec<Alteration> = (0..7000).map(|_| tally.draw(&mut rng)).collect();
        let share = |kind| drawn.iter().filter(|&&k| k == kind).count();
        // Untried kinds stay at one half; the refused one near 1/200, the passed one near 1.
        assert!(
            share(Alteration::RemoveToken) < 30,
            "{}",
            share(Alteration::RemoveToken)
        );
        assert!(
            share(Alteration::SameAsAnother) > 1500,
            "{}",
            share(Alteration::SameAsAnother)
        );
        assert!(
            share(Alteration::RepeatLine) > 600,
            "{}",
            share(Alteration::RepeatLine)
        );
    }

    #[test]
    fn nothing_to_alter_is_none() {
        let alterer = Alterer::default();
        let empty = read("");
        let mut rng = Rng::new(1);
        for kind in Alteration::ALL {
            assert_eq!(alterer.alter(&empty, kind, &mut rng), None, "{kind}");
        }
        let words = read("abc\n");
        assert_eq!(alterer.alter(&words, Alteration::Neighbour, &mut rng), None);
        assert!(alterer
            .alter_some(&empty, &mut rng, &Tally::default())
            .is_none());
    }
}
