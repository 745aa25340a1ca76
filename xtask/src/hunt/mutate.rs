//! The alterations a competitive programmer makes to a case by hand, as hack makes them: a
//! number set to another number of the input (equal values), to a neighbour (±1) or to a
//! bound the inputs seen allow; a line or a token removed or repeated. Counts are never altered
//! themselves: after each alteration [`Counts::repair`] sets them to what they count, so `n`
//! follows the numbers and `m` the edges. Whether the result meets the problem's constraints is
//! the validator's to say.

use std::collections::BTreeSet;
use std::fmt;

use super::counts::Counts;
use super::input::{Input, Place, Rng, Token};

/// One kind of alteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Alteration {
    /// A number set to another number of the input: equal values.
    SameAsAnother,
    /// A number set to one more or one less.
    Neighbour,
    /// A number set to a bound: the least or greatest value seen in any input, or 0 or 1.
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
}

impl Alterer {
    /// Alterations for inputs like `examples` (the generator's, the samples), whose counts
    /// are `counts`.
    pub fn new(counts: Counts, examples: &[Input]) -> Alterer {
        let values: Vec<i128> = examples
            .iter()
            .flat_map(|input| {
                input
                    .numbers()
                    .filter(|(place, _)| !counts.is_count(*place))
                    .map(|(_, value)| value)
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut bounds: BTreeSet<i128> = [0, 1].into();
        bounds.extend(values.iter().min());
        bounds.extend(values.iter().max());
        Alterer {
            counts,
            bounds: bounds.into_iter().collect(),
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
                let new = match kind {
                    Alteration::SameAsAnother => numbers.get(rng.below(numbers.len()))?.1,
                    Alteration::Neighbour if rng.one_in(2) => value.checked_add(1)?,
                    Alteration::Neighbour => value.checked_sub(1)?,
                    _ => self.bounds[rng.below(self.bounds.len())],
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

    /// `input` altered by one to four alterations of kinds drawn from `rng`; `None` when none
    /// changed it.
    pub fn alter_some(&self, input: &Input, rng: &mut Rng) -> Option<(Input, Vec<Alteration>)> {
        let times = 1 + rng.below(4);
        let mut current = input.clone();
        let mut done = Vec::new();
        for _ in 0..times {
            let kind = Alteration::ALL[rng.below(Alteration::ALL.len())];
            if let Some(next) = self.alter(&current, kind, rng) {
                current = next;
                done.push(kind);
            }
        }
        (!done.is_empty()).then_some((current, done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        Alterer::new(Counts::infer(&examples), &examples)
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
        let alterer = Alterer::new(Counts::infer(&examples), &examples);
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
    fn nothing_to_alter_is_none() {
        let alterer = Alterer::default();
        let empty = read("");
        let mut rng = Rng::new(1);
        for kind in Alteration::ALL {
            assert_eq!(alterer.alter(&empty, kind, &mut rng), None, "{kind}");
        }
        let words = read("abc\n");
        assert_eq!(alterer.alter(&words, Alteration::Neighbour, &mut rng), None);
        assert!(alterer.alter_some(&empty, &mut rng).is_none());
    }
}
