//! `DigitSet`: a set of Sudoku digits 1–9 kept as a 9-bit mask, so candidate sets can never be
//! confused with cell indices or other integers.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of digits from 1 to 9.
///
/// Data layout: bit `d - 1` of the inner `u16` is set when digit `d` is in the set; bits 9–15
/// are always zero.
///
/// ```
/// use sudoku_core::DigitSet;
/// let mut set = DigitSet::EMPTY;
/// set.insert(3);
/// set.insert(7);
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.min(), Some(3));
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 7]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet(u16);

impl DigitSet {
    /// No digit.
    pub const EMPTY: DigitSet = DigitSet(0);
    /// Every digit 1–9.
    pub const ALL: DigitSet = DigitSet(0x1ff);

    /// The set holding `digit` alone.
    ///
    /// # Panics
    /// When `digit` is not in 1–9.
    pub fn single(digit: u8) -> DigitSet {
        assert!(
            (1..=9).contains(&digit),
            "a Sudoku digit is 1-9, not {}",
            digit
        );
        DigitSet(1 << (digit - 1))
    }

    /// The set whose mask is `bits`; bits above the ninth are dropped.
    pub const fn from_bits(bits: u16) -> DigitSet {
        DigitSet(bits & 0x1ff)
    }

    /// The raw 9-bit mask (bit `d - 1` for digit `d`).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `digit` is in the set (false for anything outside 1–9).
    pub fn contains(self, digit: u8) -> bool {
        (1..=9).contains(&digit) && self.0 & (1 << (digit - 1)) != 0
    }

    /// Adds `digit`.
    ///
    /// # Panics
    /// When `digit` is not in 1–9.
    pub fn insert(&mut self, digit: u8) {
        self.0 |= DigitSet::single(digit).0;
    }

    /// Removes `digit`; digits outside 1–9 are never in the set, so removing one does nothing.
    pub fn remove(&mut self, digit: u8) {
        if (1..=9).contains(&digit) {
            self.0 &= !(1 << (digit - 1));
        }
    }

    /// Number of digits in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no digit.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit, if any.
    pub const fn min(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8 + 1)
        }
    }

    /// The digit, when the set holds exactly one.
    pub const fn single_digit(self) -> Option<u8> {
        if self.0 != 0 && self.0 & (self.0 - 1) == 0 {
            Some(self.0.trailing_zeros() as u8 + 1)
        } else {
            None
        }
    }

    /// The digits in increasing order.
    pub fn iter(self) -> Digits {
        Digits(self.0)
    }
}

/// Iterator over the digits of a [`DigitSet`], smallest first.
#[derive(Clone, Debug)]
pub struct Digits(u16);

impl Iterator for Digits {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let digit = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(digit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Digits {}

impl IntoIterator for DigitSet {
    type Item = u8;
    type IntoIter = Digits;

    fn into_iter(self) -> Digits {
        self.iter()
    }
}

impl std::iter::FromIterator<u8> for DigitSet {
    fn from_iter<I: IntoIterator<Item = u8>>(digits: I) -> DigitSet {
        let mut set = DigitSet::EMPTY;
        for digit in digits {
            set.insert(digit);
        }
        set
    }
}

impl BitAnd for DigitSet {
    type Output = DigitSet;
    fn bitand(self, other: DigitSet) -> DigitSet {
        DigitSet(self.0 & other.0)
    }
}

impl BitAndAssign for DigitSet {
    fn bitand_assign(&mut self, other: DigitSet) {
        self.0 &= other.0;
    }
}

impl BitOr for DigitSet {
    type Output = DigitSet;
    fn bitor(self, other: DigitSet) -> DigitSet {
        DigitSet(self.0 | other.0)
    }
}

impl BitOrAssign for DigitSet {
    fn bitor_assign(&mut self, other: DigitSet) {
        self.0 |= other.0;
    }
}

/// Set difference: the digits of `self` that are not in `other`.
impl Sub for DigitSet {
    type Output = DigitSet;
    fn sub(self, other: DigitSet) -> DigitSet {
        DigitSet(self.0 & !other.0)
    }
}

/// Complement within 1–9.
impl Not for DigitSet {
    type Output = DigitSet;
    fn not(self) -> DigitSet {
        DigitSet(!self.0 & 0x1ff)
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::DigitSet;

    #[test]
    fn set_operations_match_their_digits() {
        let odd: DigitSet = [1, 3, 5, 7, 9].iter().copied().collect();
        let low: DigitSet = (1..=4).collect();
        assert_eq!((odd & low).iter().collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!((odd - low).iter().collect::<Vec<_>>(), vec![5, 7, 9]);
        assert_eq!((!odd).iter().collect::<Vec<_>>(), vec![2, 4, 6, 8]);
        assert_eq!((odd | low).len(), 7);
        assert_eq!(DigitSet::single(9).single_digit(), Some(9));
        assert_eq!(low.single_digit(), None);
        assert!(!odd.contains(0) && !odd.contains(10) && odd.contains(9));
        assert_eq!(format!("{:?}", low), "{1, 2, 3, 4}");
    }
}
