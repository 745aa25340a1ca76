//! The search node, `Board` (per-digit band bitboards), and its propagation to a fixpoint:
//! placing and removing candidates, the band logic (locked candidates between rows and boxes,
//! pointing, hidden singles), the column logic, naked singles, and the light step's variants.

use crate::grid::Grid;

use super::tables::*;

/// A search node.
///
/// Data layout: `candidates[9 × band + digit]` (see [`slot`]) holds the cells of band `band` (rows
/// `3 × band` to `3 × band + 2`) where `digit` (0-8) may still go, bit `9 × row_in_band + column`.
/// So bit `i` of band `b` is the cell with row-major index `27 × b + i`.
///
/// Invariant: every candidate removed is one that no solution below this node uses; a placed
/// cell (bit clear in `unsolved`) has exactly one candidate digit, removed from all its peers
/// (the peers in its band once its slot has been updated). Every slot changed since
/// propagation last reached its fixpoint is noted in `news`.
#[derive(Clone, Copy)]
pub(super) struct Board {
    pub(super) candidates: [u32; 27],
    /// Cells not yet placed, per band.
    pub(super) unsolved: [u32; 3],
    /// Cells with two candidates, per band, as naked singles last saw the band: up to date on
    /// the cells still open once propagation is done (a band whose candidates change is looked
    /// at again, and a cell placed since is masked out by `unsolved`), so that branching need
    /// not count candidates again.
    pub(super) pairs: [u32; 3],
    /// Slots changed since propagation last reached its fixpoint (where every deduction had
    /// seen every slot as it is), noted by the changes made since: propagation starts from
    /// them. Once a propagation fails, the slot where the band logic found the contradiction
    /// (none when another deduction found it), for the search's conflict weights: the board
    /// is thrown away then, and this costs nothing on the way that does not fail.
    pub(super) news: u32,
}

/// All 27 slots, one bit each.
pub(super) const ALL_SLOTS: u32 = (1 << 27) - 1;

/// Where a digit's candidates in a band are kept: the nine digits of a band side by side.
#[inline(always)]
pub(super) fn slot(digit: usize, band: usize) -> usize {
    9 * band + digit
}

impl Board {
    /// The puzzle's givens placed; `None` when two of them clash.
    ///
    /// All at once rather than one [`Board::place`] each: every given removes its digit from its
    /// peers, then every given cell keeps only its own digit. A given that clashes with another
    /// has lost its own digit to it by then.
    pub(super) fn new(puzzle: &Grid) -> Option<Board> {
        let mut board = Board {
            candidates: [BAND; 27],
            unsolved: [BAND; 3],
            pairs: [0; 3],
            news: ALL_SLOTS,
        };
        // The givens of each digit in each band, by slot.
        let mut givens = [0u32; 27];
        for (band, cells) in puzzle.cells().chunks_exact(27).enumerate() {
            let [next, after] = OTHER_BANDS[band];
            // The band's given cells as a bit set first, then one turn per given: a test per
            // cell mispredicted as often as blanks and givens alternate.
            let mut given_cells = 0u32;
            for (index, &digit) in cells.iter().enumerate() {
                given_cells |= u32::from(digit != 0) << index;
            }
            while given_cells != 0 {
                let index = given_cells.trailing_zeros() as usize;
                given_cells &= given_cells - 1;
                let (digit, column) = (cells[index] as usize - 1, index % 9);
                givens[slot(digit, band)] |= 1 << index;
                // `place_alone`'s eliminations, written out with the band, index and column
                // at hand: calling it (or a helper shared with it) cost more instructions
                // (measured: docs/solver-journal.md, "Why the code is as it is").
                board.eliminate(slot(digit, band), PEERS_IN_BAND[index]);
                board.eliminate(slot(digit, next), COLUMN << column);
                board.eliminate(slot(digit, after), COLUMN << column);
            }
        }
        for band in 0..3 {
            let slots = 9 * band..9 * band + 9;
            let given_cells = givens[slots.clone()]
                .iter()
                .fold(0, |all, &cells| all | cells);
            board.unsolved[band] = BAND & !given_cells;
            for (candidates, &given) in board.candidates[slots.clone()]
                .iter_mut()
                .zip(&givens[slots])
            {
                if given & !*candidates != 0 {
                    return None;
                }
                *candidates = *candidates & !given_cells | given;
            }
        }
        Some(board)
    }

    /// Puts `digit` in the cell `cell` (one bit) of `band`, which must be one of its candidates:
    /// removes the cell's other candidates, then places it as [`Board::place_alone`] does,
    /// noting the slots it changes in `news`. `cell_digits` (bit `d` for digit `d`) holds the
    /// cell's other candidate digits, `digit` itself with them or not: the caller knows them,
    /// and their slots are the ones the clear changes (a superset does no harm).
    pub(super) fn place(&mut self, digit: usize, band: usize, cell: u32, cell_digits: u16) {
        self.clear_other_digits(digit, band, cell);
        let changed = self.place_alone(digit, band, cell);
        self.news |= u32::from(cell_digits) << (9 * band) | changed;
    }

    /// Removes `digit` from the candidates of `cell` (one bit) of `band`, noting it in `news`.
    pub(super) fn remove_candidate(&mut self, digit: usize, band: usize, cell: u32) {
        self.eliminate(slot(digit, band), cell);
        self.news |= 1 << slot(digit, band);
    }

    /// Removes `cells` from the candidates of every digit of `band` but `digit`.
    #[inline(always)]
    pub(super) fn clear_other_digits(&mut self, digit: usize, band: usize, cells: u32) {
        // The band's nine digit slots are contiguous: one pass clears the cells from all of
        // them (the compiler vectorises it).
        let slots = &mut self.candidates[9 * band..9 * band + 9];
        let kept = slots[digit];
        for candidates in slots.iter_mut() {
            *candidates &= !cells;
        }
        slots[digit] = kept;
    }

    /// Puts `digit` in `cell` of `band`, a cell with no other candidate digit left: removes the
    /// digit from the cell's peers. Returns the slots that changed (slot bits).
    #[inline(always)]
    pub(super) fn place_alone(&mut self, digit: usize, band: usize, cell: u32) -> u32 {
        let own = slot(digit, band);
        let index = cell.trailing_zeros() as usize;
        let in_band = self.eliminate_noted(own, PEERS_IN_BAND[index]);
        let in_other_bands = self.eliminate_in_other_bands(own, COLUMN << (index % 9));
        self.unsolved[band] &= !cell;
        in_band | in_other_bands
    }

    /// Removes `cells` from the candidates in `slot`.
    #[inline(always)]
    pub(super) fn eliminate(&mut self, slot: usize, cells: u32) {
        self.candidates[slot] &= !cells;
    }

    /// [`Board::eliminate`], returning the slot's bit when that removed a candidate, else 0.
    #[inline(always)]
    pub(super) fn eliminate_noted(&mut self, slot: usize, cells: u32) -> u32 {
        let candidates = self.candidates[slot];
        self.candidates[slot] = candidates & !cells;
        u32::from(candidates & cells != 0) << slot
    }

    /// Removes `cells` from the candidates of `slot`'s digit in the other two bands. Returns
    /// the slots that changed (slot bits); callers that compare with a copy ignore them.
    #[inline(always)]
    pub(super) fn eliminate_in_other_bands(&mut self, slot: usize, cells: u32) -> u32 {
        let [next, after] = SAME_DIGIT_OTHER_BANDS[slot];
        let (next, after) = (usize::from(next), usize::from(after));
        let (in_next, in_after) = (self.candidates[next], self.candidates[after]);
        self.candidates[next] = in_next & !cells;
        self.candidates[after] = in_after & !cells;
        u32::from(in_next & cells != 0) << next | u32::from(in_after & cells != 0) << after
    }

    /// The slots whose candidates differ from `seen`, one bit each.
    ///
    /// Not inlined: inlined into the light propagation, which keeps `seen` on its stack, the
    /// compare was vectorised badly (scalar compares, then packing through memory), and cost
    /// more than the call (measured: docs/solver-journal.md, "Why the code is as it is").
    #[inline(never)]
    pub(super) fn changed_slots(&self, seen: &[u32; 27]) -> u32 {
        let mut changed = 0;
        for ((now, seen), bit) in self.candidates.iter().zip(seen).zip(&SLOT_BITS) {
            changed |= ((now != seen) as u32).wrapping_neg() & bit;
        }
        changed
    }

    /// The band logic for the slots in `changed` (slot bits), one digit in one band each:
    /// locked candidates between its boxes and rows and hidden singles in its rows, then a box
    /// confined to one column taking that column from the other bands (pointing), then the
    /// singles placed. `None` on a contradiction (its slot left in `news`), else the slots that
    /// now have news for the band logic: those it changed after looking at them, or changed and
    /// did not look at.
    ///
    /// A row with one cell left takes the digit there. Its other peers in the band for this
    /// digit are gone already: the row has no other cell, and the other rows lost the cell's
    /// box to the locked-candidates step (the row can only take the digit in that box). That
    /// box then has the one cell, so its column is among the locked columns that the other
    /// bands lose.
    ///
    /// Pointing waits until every slot of the batch has been looked at. Done slot by slot, it
    /// stored to the same digit's slots in the other bands, and when one of those came later
    /// in the batch (a fifth of all slots looked at on the hard sets), its load waited on that
    /// store, and so on the whole chain of table lookups before it, even when nothing changed.
    /// Each slot notes the columns it locks as it is looked at; the batch ends with one pass
    /// over all 27 slots that takes from each what pointing from its digit's other two bands
    /// and the row singles' claims (below) remove, a loop over fixed arrays that compiles to
    /// vector code. A slot that this pass changes after its turn has news and is looked at
    /// again in the next batch. The columns a slot locks are taken from its candidates as the
    /// batch left them, before pointing from another band of the digit: any such removal is
    /// sound, and a row single that loses its cell so leaves its row empty, a contradiction
    /// the slot's next look finds. A pass of its own over the batch's slots, storing as it
    /// went, ran one slot at a time behind those stores; most of all on the givens, which come
    /// as one batch of all 27 slots.
    ///
    /// The cells of row singles are cleared from the band's other digits in that closing pass,
    /// not slot by slot: a slot's clear stores to all nine slots of its band, so the
    /// next slot of that band waited on it (its load on the clear's store, behind the whole
    /// chain of table lookups), and so did whether to clear, which could not be predicted on
    /// hard boards. A slot that loses a cell to the clear has news and is looked at again. Two
    /// digits claiming one cell in a batch is a contradiction, caught here from the claims so
    /// far: the band logic would meet it later (the row is left one cell short), but on the
    /// hard sets nearly half of all dead ends are found this way, and leaving it to later was
    /// slower.
    ///
    /// The slots with news are noted as the batch goes (a slot changed before its turn in the
    /// batch has no news after it), not found by comparing all 27 slots with a copy, whose
    /// loads waited on the batch's stores. The same kind of wait is what the closing pass
    /// removes. Each of these three choices was measured: docs/solver-journal.md, "Why the
    /// code is as it is".
    #[inline(always)]
    pub(super) fn update_slots(&mut self, changed: u32) -> Option<u32> {
        // The cells claimed by row singles in this batch, per band and per slot.
        let mut claimed = [0u32; 3];
        let mut claimed_by = [0u32; 27];
        // The columns each slot of the batch takes from its digit's other bands (pointing).
        let mut pointed = [0u32; 27];
        let mut next = 0u32;
        let unsolved = self.unsolved;
        let mut rest = changed;
        while rest != 0 {
            let slot = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let band = slot / 9;
            let cells = locked_in_band(self.candidates[slot]);
            // A permutation gives each row a minirow, so every row of `cells` keeps a cell. A
            // placed cell keeps only its own digit, so an open cell alone in its row is new.
            let singles = cells & cells_of_single_rows(cells) & unsolved[band];
            if cells == 0 || singles & claimed[band] != 0 {
                self.news = 1 << slot;
                return None;
            }
            // Looked at now, with all that the batch did so far: no news.
            next &= !(1 << slot);
            self.candidates[slot] = cells;
            claimed[band] |= singles;
            claimed_by[slot] = singles;
            pointed[slot] = LOCKED_COLUMNS[columns_of(cells) as usize];
        }
        // Pointing and the row singles' clear, once every slot of the batch has been looked at:
        // over every slot, so that the loop compiles to vector code.
        for (band, &gone) in claimed.iter().enumerate() {
            // Computed, not looked up: the loop is unrolled, so these are constants.
            let (one, two) = ((band + 1) % 3, (band + 2) % 3);
            self.unsolved[band] &= !gone;
            let slots = 9 * band..9 * band + 9;
            let candidates: &mut [u32] = &mut self.candidates[slots.clone()];
            let own = &claimed_by[slots.clone()];
            let bits = &SLOT_BITS[slots];
            let from_one = &pointed[9 * one..9 * one + 9];
            let from_two = &pointed[9 * two..9 * two + 9];
            for digit in 0..9 {
                let taken = gone & !own[digit] | from_one[digit] | from_two[digit];
                let lost = candidates[digit] & taken;
                candidates[digit] ^= lost;
                next |= u32::from(lost != 0).wrapping_neg() & bits[digit];
            }
        }
        Some(next)
    }

    /// The light band logic ([`Step::Light`]): [`Board::update_slots`] without pointing, and
    /// with each row single's cells cleared from the band's other digits at once. `seen`
    /// holds each slot as the band logic last left it; returns the slots that differ from it.
    ///
    /// On boards whose singles come in cascades (serg), a slot that sees the cells earlier
    /// slots took finds more in the same batch, so deferring the clear was slower there; and
    /// comparing with `seen` costs less there than noting (both measured: docs/solver-journal.md,
    /// "Why the code is as it is").
    #[inline(always)]
    pub(super) fn update_slots_light(&mut self, changed: u32, seen: &mut [u32; 27]) -> Option<u32> {
        let mut rest = changed;
        while rest != 0 {
            let slot = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (digit, band) = (slot % 9, slot / 9);
            let cells = locked_in_band(self.candidates[slot]);
            if cells == 0 {
                return None;
            }
            self.candidates[slot] = cells;
            seen[slot] = cells;
            // Without pointing, the single's column is taken from the other bands here.
            let singles = cells & ROW_CELLS[single_rows(cells)] & self.unsolved[band];
            if singles != 0 {
                let columns = columns_of(singles) * COLUMN;
                self.eliminate_in_other_bands(slot, columns);
                self.clear_other_digits(digit, band, singles);
                self.unsolved[band] &= !singles;
            }
        }
        Some(self.changed_slots(seen))
    }

    /// The cells of `band` with at least one, at least two and at least three candidates.
    #[inline(always)]
    pub(super) fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut once, mut twice, mut more) = (0, 0, 0);
        for digit in 0..9 {
            let cells = self.candidates[slot(digit, band)];
            more |= twice & cells;
            twice |= once & cells;
            once |= cells;
        }
        (once, twice, more)
    }

    /// Naked singles in the bands marked in `touched` (slot bits: only a band with a changed
    /// slot can hold a new one), and the check that every cell keeps a candidate. `None` on a
    /// contradiction, else the slots that placing them changed.
    #[inline(always)]
    pub(super) fn naked_singles(&mut self, touched: u32) -> Option<u32> {
        let mut changed = 0;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 || touched >> (9 * band) & 0x1ff == 0 {
                continue;
            }
            let (once, twice, more) = self.candidate_counts(band);
            self.pairs[band] = twice & !more & unsolved;
            if unsolved & !once != 0 {
                return None;
            }
            let singles = unsolved & !twice;
            if singles == 0 {
                continue;
            }
            for digit in 0..9 {
                let mut cells = self.candidates[slot(digit, band)] & singles;
                while cells != 0 {
                    let cell = cells & cells.wrapping_neg();
                    cells ^= cell;
                    // Gone when a single placed just before took this digit in its row, box
                    // or column.
                    if self.candidates[slot(digit, band)] & cell == 0 {
                        return None;
                    }
                    changed |= self.place_alone(digit, band, cell);
                }
            }
        }
        Some(changed)
    }

    /// Locked candidates between boxes and columns for the digits marked in `touched` (slot
    /// bits). `None` on a contradiction, else the slots that lost candidates.
    ///
    /// In each stack (three columns), each column takes the digit in exactly one band and each
    /// band in exactly one column, so only (band, column) segments on some permutation keep
    /// their candidates; no permutation at all means a column or a box has lost the digit.
    /// Hidden singles in columns are left out: the band logic finds most of them (as hidden
    /// singles in boxes), and looking for the rest cost more than it saved (measured).
    pub(super) fn column_logic(&mut self, touched: u32) -> Option<u32> {
        let mut digits = (touched | touched >> 9 | touched >> 18) & 0x1ff;
        let mut changed = 0;
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let columns = [
                columns_of(self.candidates[slot(digit, 0)]),
                columns_of(self.candidates[slot(digit, 1)]),
                columns_of(self.candidates[slot(digit, 2)]),
            ];
            for shift in [0, 3, 6] {
                let pattern = (columns[0] >> shift & 7)
                    | (columns[1] >> shift & 7) << 3
                    | (columns[2] >> shift & 7) << 6;
                let keep = PERMUTABLE[pattern as usize] as u32;
                if keep == 0 {
                    return None;
                }
                if keep != pattern {
                    for band in 0..3 {
                        let lost = ((pattern & !keep) >> (3 * band) & 7) << shift;
                        changed |=
                            self.eliminate_noted(slot(digit, band), lost | lost << 9 | lost << 18);
                    }
                }
            }
        }
        Some(changed)
    }

    /// Runs all deductions until none applies: the band logic of every changed slot first (the
    /// cheapest), then the column logic, then naked singles. False on a contradiction, with
    /// `news` holding its slot when the band logic found it, else nothing.
    ///
    /// The column logic comes before naked singles, which measured faster than after: the
    /// band logic already does most of the column work, and what is left is cheaper to finish
    /// before counting candidates (measured: docs/solver-journal.md, "Why the code is as it is").
    #[inline(always)]
    pub(super) fn propagate(&mut self) -> bool {
        self.propagate_with::<true>()
    }

    /// [`Board::propagate`], leaving out the column logic unless `COLUMNS` (the givens' step,
    /// see [`Step`]). One copy of the loop for each, so that neither tests a flag.
    ///
    /// Every deduction notes the slots it changes, so no round compares the slots with a copy of
    /// them, and the board need not carry one: 136 bytes to copy per search node instead of 244,
    /// and one store less per slot looked at (measured: docs/solver-journal.md, "Why the code is as
    /// it is").
    pub(super) fn propagate_with<const COLUMNS: bool>(&mut self) -> bool {
        let mut changed = std::mem::replace(&mut self.news, 0);
        let (mut for_naked, mut for_columns) = (0, 0);
        loop {
            while changed != 0 {
                for_naked |= changed;
                changed = match self.update_slots(changed) {
                    Some(next) => next,
                    None => return false,
                };
            }
            for_columns |= for_naked;
            if COLUMNS {
                match self.column_logic(std::mem::replace(&mut for_columns, 0)) {
                    None => return false,
                    Some(0) => {}
                    Some(lost) => {
                        changed = lost;
                        continue;
                    }
                }
            }
            match self.naked_singles(std::mem::replace(&mut for_naked, 0)) {
                None => return false,
                Some(0) => return true,
                Some(lost) => changed = lost,
            }
        }
    }

    /// Propagation by the light band logic and naked singles, no column logic ([`Step::Light`]).
    /// The light band logic finds its slots with news by comparing them with a copy of the
    /// candidates made as propagation starts, kept up to date: on the boards that search light,
    /// that costs less than noting (measured: docs/solver-journal.md, "Why the code is as it is").
    /// The slots noted in `news` are looked at first, so the copy need not be older than the
    /// changes.
    pub(super) fn propagate_light(&mut self) -> bool {
        let mut seen = self.candidates;
        let mut changed = std::mem::replace(&mut self.news, 0);
        let mut for_naked = 0;
        loop {
            while changed != 0 {
                for_naked |= changed;
                changed = match self.update_slots_light(changed, &mut seen) {
                    Some(next) => next,
                    None => return false,
                };
            }
            match self.naked_singles(std::mem::replace(&mut for_naked, 0)) {
                None => return false,
                Some(0) => return true,
                Some(_) => changed = self.changed_slots(&seen),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::branch::{Branching, Conflicts};

    /// A board where digits 1 and 2 (slots 0 and 1) may each go only in cells 0, 12 and 24 of
    /// band 0 (one per row and box), and every other candidate is open; slots 0 and 1 not
    /// looked at yet. Also, for the light band logic, the slots as it last saw them.
    fn two_digits_on_the_same_cells() -> (Board, [u32; 27]) {
        let mut board = Board {
            candidates: [BAND; 27],
            unsolved: [BAND; 3],
            pairs: [0; 3],
            news: 0,
        };
        board.candidates[0] = 1 | 1 << 12 | 1 << 24;
        board.candidates[1] = board.candidates[0];
        let mut seen = [BAND; 27];
        seen[0] = u32::MAX;
        seen[1] = u32::MAX;
        (board, seen)
    }

    #[test]
    fn two_digits_claiming_one_cell_in_a_batch_is_a_contradiction() {
        let (mut full, _) = two_digits_on_the_same_cells();
        assert!(full.update_slots(0b11).is_none());
        // Digit 2 (slot 1) claimed the cell that digit 1 had claimed: the contradiction's slot.
        assert_eq!(full.news, 0b10);
        let (mut light, mut seen) = two_digits_on_the_same_cells();
        assert!(light.update_slots_light(0b11, &mut seen).is_none());
    }

    #[test]
    fn single_rows_are_the_rows_with_one_cell() {
        // Every non-empty row in each place, beside rows of one, two and nine cells.
        let others = [1u32, 0x100, 0x3, 0x101, 0x1ff];
        for row in 1..0x200u32 {
            for &other in &others {
                for &third in &others {
                    for rows in [
                        [row, other, third],
                        [other, row, third],
                        [other, third, row],
                    ] {
                        let cells = rows[0] | rows[1] << 9 | rows[2] << 18;
                        let expected = rows
                            .iter()
                            .enumerate()
                            .filter(|(_, cells)| cells.count_ones() == 1)
                            .fold(0, |single, (index, _)| single | 0x1ff << (9 * index));
                        assert_eq!(cells_of_single_rows(cells), expected, "{:#x}", cells);
                        assert_eq!(ROW_CELLS[single_rows(cells)], expected, "{:#x}", cells);
                    }
                }
            }
        }
    }

    #[test]
    fn row_singles_leave_the_other_digits_of_the_band() {
        for full in [true, false] {
            let (mut board, mut seen) = two_digits_on_the_same_cells();
            let changed = if full {
                board.update_slots(0b1)
            } else {
                board.update_slots_light(0b1, &mut seen)
            };
            // Slot 1 was not looked at; digits 2-9 lost the placed cells and digit 1 their
            // columns in bands 1 and 2.
            assert_eq!(changed, Some(0x1fe | 1 << 9 | 1 << 18));
            let placed = 1 | 1 << 12 | 1 << 24;
            assert_eq!(board.unsolved[0], BAND & !placed);
            assert_eq!(board.candidates[0], placed);
            for digit in 1..9 {
                assert_eq!(board.candidates[digit] & placed, 0, "digit {}", digit + 1);
            }
            // The other bands are untouched but for the columns of the placed cells, which
            // the light logic takes from digit 1 there and the full logic takes as locked.
            assert_eq!(
                board.candidates[9],
                BAND & !(COLUMN | COLUMN << 3 | COLUMN << 6)
            );
            assert_eq!(board.candidates[10], BAND);
        }
    }

    /// Propagates `board` from the slots it noted and, apart, from all 27, and checks that both
    /// end alike: a change that no deduction noted would leave the first short of the
    /// second's fixpoint. Then does the same below each digit of its branching cell, for up
    /// to `nodes` nodes in all.
    fn check_noting(board: &Board, light: bool, nodes: &mut u32) {
        if *nodes == 0 {
            return;
        }
        *nodes -= 1;
        let propagate = |board: &mut Board| {
            if light {
                board.propagate_light()
            } else {
                board.propagate()
            }
        };
        let (mut noted, mut all) = (*board, *board);
        all.news = ALL_SLOTS;
        let consistent = propagate(&mut noted);
        assert_eq!(consistent, propagate(&mut all));
        if !consistent {
            return;
        }
        assert_eq!(noted.candidates, all.candidates);
        assert_eq!(noted.unsolved, all.unsolved);
        if noted.is_solved() {
            return;
        }
        let (band, cell) = noted.branch_cell(Branching::FewestCandidates, &Conflicts::NONE);
        let digits = noted.digits_of(band, cell);
        let mut rest = digits;
        while rest != 0 {
            let digit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut child = noted;
            child.place(digit, band, cell, digits);
            check_noting(&child, light, nodes);
        }
    }

    #[test]
    fn every_change_is_noted() {
        let puzzles = include_str!("../../tests/data/magictour_top150.txt")
            .lines()
            .chain(include_str!("../../tests/data/serg_benchmark_150.txt").lines());
        for line in puzzles {
            let board = Board::new(&line.parse().expect("a puzzle")).expect("no clash");
            for light in [false, true] {
                check_noting(&board, light, &mut 200);
            }
        }
    }
}
