//! The values the validator allows for each number of an input, found by asking it: the least
//! and the greatest, one number at a time, the rest of the input as it is. Hack's bound
//! alteration sets a number to them, as a person who reads the constraints sets `a` and `b`
//! to 10^9 (where an `i32` product overflows), values the generator, written small so that the
//! reference stays quick, seldom reaches.
//!
//! Each edge is found by galloping from the number's value (one step, then twice as far each
//! time the validator passes) and then halving the gap between the last value it passed and the
//! first it refused: about 2 × log2 of the distance in runs, 60 for a bound of 10^9. What is
//! found is a value the validator passed with the next one refused, so a validator that is not
//! monotone still yields only legal values.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Result;

use super::counts::Counts;
use super::in_order::in_order;
use super::input::{Column, Input, Place};

/// How many numbers of each kind of line are probed (the first ones of the header line, of the
/// second line and of the first row after it): the rest of a line takes the range of the last
/// one probed before it ([`Ranges::of`]), since a row's numbers share their constraints.
pub const PROBED_PER_LINE: usize = 3;

/// How long the validator may take over one probe: one slower than this (a primality check
/// of a number near 10^18) has refused the value, which is then no bound to set numbers to.
/// The probe's inputs are the smallest seen, which a validator judges in milliseconds.
pub const PROBE_RUN_TIME: Duration = Duration::from_secs(1);

/// The farthest a probe goes: numbers beyond 64 bits are no problem's constraint, so a range
/// that reaches this far is one the validator does not bound.
pub const FARTHEST: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);

/// The least and greatest value the validator passed for each column probed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranges {
    by_column: BTreeMap<Column, (i128, i128)>,
    /// Where each was probed, in reading order, for the report.
    probed: Vec<(Place, (i128, i128))>,
}

impl Ranges {
    /// The range of the number at `place`: its column's, or else that of the last column
    /// probed before it on the same kind of line; `None` when none was.
    pub fn of(&self, place: Place) -> Option<(i128, i128)> {
        let (kind, token) = place.column();
        self.by_column
            .range((kind, 0)..=(kind, token))
            .next_back()
            .map(|(_, &range)| range)
    }

    /// Each number probed, where it was and its range, in reading order.
    pub fn probed(&self) -> &[(Place, (i128, i128))] {
        &self.probed
    }

    /// Whether nothing was probed.
    pub fn is_empty(&self) -> bool {
        self.probed.is_empty()
    }
}

/// Which way a probe goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Toward {
    Least,
    Greatest,
}

/// Probes `input`, one the validator passes (`passes` says whether it passes an input), on
/// the first [`PROBED_PER_LINE`] numbers of each kind of line that are not counts, `jobs` at a
/// time. The result does not depend on `jobs`.
pub fn probe(
    input: &Input,
    counts: &Counts,
    jobs: usize,
    passes: impl Fn(usize, &Input) -> Result<bool> + Sync,
) -> Result<Ranges> {
    let mut places: Vec<Place> = Vec::new();
    for (place, _) in input.numbers().filter(|(p, _)| !counts.is_count(*p)) {
        let (kind, _) = place.column();
        let same_kind = places.iter().filter(|p| p.column().0 == kind).count();
        let first_line_of_kind = places
            .iter()
            .find(|p| p.column().0 == kind)
            .map_or(place.line, |p| p.line);
        if same_kind < PROBED_PER_LINE && place.line == first_line_of_kind {
            places.push(place);
        }
    }
    let tasks: Vec<(Place, Toward)> = places
        .iter()
        .flat_map(|&p| [(p, Toward::Least), (p, Toward::Greatest)])
        .collect();
    let mut edges = Vec::with_capacity(tasks.len());
    in_order(
        &tasks,
        jobs,
        |worker, &(place, toward)| {
            let start = input
                .get(place)
                .and_then(|t| t.number())
                .expect("a number's place");
            edge(start, toward, |value| {
                let mut altered = input.clone();
                altered.set(place, value);
                passes(worker, &altered)
            })
        },
        |_| false,
        |&value| {
            edges.push(value);
            true
        },
    )?;
    let mut ranges = Ranges::default();
    for (place, pair) in places.iter().zip(edges.chunks_exact(2)) {
        let range = (pair[0], pair[1]);
        ranges.by_column.insert(place.column(), range);
        ranges.probed.push((*place, range));
    }
    Ok(ranges)
}

/// The last value toward `toward` that `passes`, from `start` (which passes): gallop, then
/// halve the gap.
fn edge(start: i128, toward: Toward, mut passes: impl FnMut(i128) -> Result<bool>) -> Result<i128> {
    let (limit, sign) = match toward {
        Toward::Least => (FARTHEST.0, -1),
        Toward::Greatest => (FARTHEST.1, 1),
    };
    let beyond = |value: i128| sign * (value - limit) > 0;
    if beyond(start) {
        return Ok(start);
    }
    let (mut passed, mut step) = (start, 1i128);
    let refused = loop {
        let mut next = passed + sign * step;
        if beyond(next) {
            next = limit;
        }
        if next == passed {
            return Ok(passed);
        }
        if passes(next)? {
            passed = next;
            step *= 2;
        } else {
            break next;
        }
    };
    let mut refused = refused;
    while (refused - passed).abs() > 1 {
        let middle = passed + (refused - passed) / 2;
        if passes(middle)? {
            passed = middle;
        } else {
            refused = middle;
        }
    }
    Ok(passed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn read(text: &str) -> Input {
        Input::read(text.as_bytes()).unwrap()
    }

    #[test]
    fn an_edge_is_the_last_value_passed_in_about_two_logs_of_runs() {
        for (start, low, high) in [(5, 1, 1_000_000_000), (1, 1, 1), (-3, -7, 12), (0, 0, 0)] {
            let runs = Cell::new(0u32);
            let passes = |value: i128| {
                runs.set(runs.get() + 1);
                Ok((low..=high).contains(&value))
            };
            assert_eq!(edge(start, Toward::Greatest, passes).unwrap(), high);
            assert_eq!(edge(start, Toward::Least, passes).unwrap(), low);
            assert!(runs.get() <= 2 * 2 * 64, "{} runs", runs.get());
        }
        // 10^9 from 5: 30 gallops and about 30 halvings.
        let runs = Cell::new(0u32);
        let passes = |value: i128| {
            runs.set(runs.get() + 1);
            Ok(value <= 1_000_000_000)
        };
        assert_eq!(edge(5, Toward::Greatest, passes).unwrap(), 1_000_000_000);
        assert!(runs.get() <= 62, "{} runs", runs.get());
    }

    #[test]
    fn a_validator_that_passes_everything_gives_the_64_bit_range() {
        let passes = |_: i128| Ok(true);
        assert_eq!(edge(7, Toward::Greatest, passes).unwrap(), i64::MAX as i128);
        assert_eq!(edge(7, Toward::Least, passes).unwrap(), i64::MIN as i128);
        // A number already past it is left where it is.
        let huge = i64::MAX as i128 * 4;
        assert_eq!(edge(huge, Toward::Greatest, passes).unwrap(), huge);
    }

    #[test]
    fn a_validator_that_is_not_monotone_still_yields_a_value_it_passed() {
        // Odd numbers up to 99 only.
        let passes = |value: i128| Ok(value % 2 != 0 && (1..=99).contains(&value));
        let greatest = edge(1, Toward::Greatest, passes).unwrap();
        assert!(passes(greatest).unwrap(), "{greatest}");
    }

    #[test]
    fn each_number_gets_its_own_range_and_a_row_shares_its_last_probed() {
        // n, then n numbers: n is a count (never probed); a_i in 1..=10^9, k in 0..=5.
        let examples = [
            read("4 2\n7 8 9 10\n"),
            read("1 0\n5\n"),
            read("3 5\n1 2 3\n"),
        ];
        let counts = Counts::infer(&examples);
        let input = &examples[0];
        let legal = |input: &Input| {
            let numbers: Vec<i128> = input.numbers().map(|(_, v)| v).collect();
            numbers[0] == numbers.len() as i128 - 2
                && (0..=5).contains(&numbers[1])
                && numbers[2..].iter().all(|v| (1..=1_000_000_000).contains(v))
        };
        let ranges = probe(input, &counts, 2, |_, i| Ok(legal(i))).unwrap();
        let at = |line, token| Place { line, token };
        let probed: Vec<Place> = ranges.probed().iter().map(|(p, _)| *p).collect();
        assert_eq!(probed, [at(0, 1), at(1, 0), at(1, 1), at(1, 2)]);
        assert_eq!(ranges.of(at(0, 1)), Some((0, 5)));
        assert_eq!(ranges.of(at(1, 0)), Some((1, 1_000_000_000)));
        // The fourth number of the row was not probed: it shares the third's range.
        assert_eq!(ranges.of(at(1, 3)), Some((1, 1_000_000_000)));
        assert_eq!(ranges.of(at(0, 0)), None);
        // The same with one job.
        assert_eq!(
            probe(input, &counts, 1, |_, i| Ok(legal(i))).unwrap(),
            ranges
        );
    }
}
