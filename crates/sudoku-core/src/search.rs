//! The solver: per-digit band bitboards, propagation (naked singles, hidden singles in rows and
//! boxes, locked candidates between boxes and rows and between boxes and columns), and
//! depth-first search that branches on a two-candidate cell (any solution, counting) or on the
//! first undecided cell in row-major order (the lexicographically smallest solution).

use crate::grid::Grid;

/// The 27 cells of a band (three rows), one bit each.
const BAND: u32 = 0x7ff_ffff;
/// Column 0 of a band (bits 0, 9, 18); shift left by the column.
const COLUMN: u32 = 0x4_0201;
/// Box 0 of a band (columns 0-2 of its three rows); shift left by 3 × the box.
const BOX: u32 = 0x1c_0e07;

/// For each cell of a band, the other cells of the band in its row, column or box.
static PEERS_IN_BAND: [u32; 27] = build_peers_in_band();

const fn build_peers_in_band() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut index = 0;
    while index < 27 {
        let (row, column) = (index / 9, index % 9);
        let peers = (0x1ff << (9 * row)) | (BOX << (column / 3 * 3)) | (COLUMN << column);
        table[index] = peers & !(1 << index);
        index += 1;
    }
    table
}

/// For the nine cells of row `r` of a band (one table per row, `ROW_MINIROWS[r]`): bits
/// `3r..3r + 3` say which of its three box segments (minirows) still have a candidate. OR-ing
/// the three rows' entries gives the band's minirow pattern.
static ROW_MINIROWS: [[u16; 512]; 3] = build_row_minirows();

/// For a 3x3 pattern of non-empty minirows (bit `3 × row + box`), the minirows that lie on some
/// placement of the digit in this band: each row of the band takes the digit in exactly one box
/// and each box in exactly one row, so only minirows on a permutation survive. Zero when no
/// permutation fits: a contradiction.
static PERMUTABLE: [u16; 512] = build_permutable();

/// `PERMUTABLE` widened to cells: for a minirow pattern, the cells of the band that lie in its
/// surviving minirows (zero when no permutation fits). One lookup instead of two on the band
/// logic's critical path.
static PERMUTABLE_CELLS: [u32; 512] = build_permutable_cells();

/// For the columns (bits 0-8) where a digit may go in a band, those alone in their stack,
/// widened to the band's three rows: the digit's box in that stack lies in that column, so no
/// other band can hold the digit there.
static LOCKED_COLUMNS: [u32; 512] = build_locked_columns();

/// The number of bits set in a 9-bit value.
static POP9: [u8; 512] = build_pop9();

const fn build_pop9() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut value = 1;
    while value < 512 {
        table[value] = table[value >> 1] + (value & 1) as u8;
        value += 1;
    }
    table
}

/// The number of a cell's peers in `in_band` (its band's 27 bits) and `in_column` (the sum of
/// its column's bits 0, 9 and 18 from the other two bands): the band counted nine bits at a time
/// by table (BOJ's generic x86-64 has no popcnt instruction), the column by one multiplication.
#[inline(always)]
fn count_peers(in_band: u32, in_column: u32) -> u32 {
    u32::from(POP9[(in_band & 0x1ff) as usize])
        + u32::from(POP9[(in_band >> 9 & 0x1ff) as usize])
        + u32::from(POP9[(in_band >> 18 & 0x1ff) as usize])
        + (in_column.wrapping_mul(COLUMN) >> 18 & 7)
}

/// A 3-bit set of rows of a band widened to their 27 cells.
static ROW_CELLS: [u32; 8] = [
    0,
    0x1ff,
    0x1ff << 9,
    0x1ff | 0x1ff << 9,
    0x1ff << 18,
    0x1ff | 0x1ff << 18,
    0x1ff << 9 | 0x1ff << 18,
    BAND,
];

const fn build_row_minirows() -> [[u16; 512]; 3] {
    let mut tables = [[0u16; 512]; 3];
    let mut row = 0;
    while row < 3 {
        let mut cells = 0;
        while cells < 512 {
            let mut segment = 0;
            while segment < 3 {
                if cells >> (3 * segment) & 7 != 0 {
                    tables[row][cells] |= 1 << (3 * row + segment);
                }
                segment += 1;
            }
            cells += 1;
        }
        row += 1;
    }
    tables
}

const fn build_permutable() -> [u16; 512] {
    // The six ways to give each of three rows a different box.
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let cells: usize = (1 << boxes[0]) | (1 << (3 + boxes[1])) | (1 << (6 + boxes[2]));
            if pattern & cells == cells {
                table[pattern] |= cells as u16;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
}

const fn build_permutable_cells() -> [u32; 512] {
    let permutable = build_permutable();
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut minirow = 0;
        while minirow < 9 {
            if permutable[pattern] >> minirow & 1 != 0 {
                table[pattern] |= 7 << (minirow / 3 * 9 + minirow % 3 * 3);
            }
            minirow += 1;
        }
        pattern += 1;
    }
    table
}

const fn build_locked_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut columns = 0;
    while columns < 512 {
        let mut locked = 0;
        let mut stack = 0;
        while stack < 3 {
            let in_stack = (columns >> (3 * stack)) & 7;
            if in_stack != 0 && in_stack & (in_stack - 1) == 0 {
                locked |= in_stack << (3 * stack);
            }
            stack += 1;
        }
        table[columns] = (locked | locked << 9 | locked << 18) as u32;
        columns += 1;
    }
    table
}

/// For each slot, the slots of the same digit in the next band and the one after (wrapping
/// around): a load instead of `(band + 1) % 3` and `(band + 2) % 3` in
/// [`Board::eliminate_in_other_bands`]. 7% (serg) to 15% (17 clue) fewer instructions on the
/// transformed public sets (callgrind), though only 0.99-1.03× in time on this machine: the
/// band logic waits on its table loads, not on arithmetic.
static SAME_DIGIT_OTHER_BANDS: [[u8; 2]; 27] = build_same_digit_other_bands();

const fn build_same_digit_other_bands() -> [[u8; 2]; 27] {
    let mut table = [[0u8; 2]; 27];
    let mut slot = 0;
    while slot < 27 {
        table[slot] = [((slot + 9) % 27) as u8, ((slot + 18) % 27) as u8];
        slot += 1;
    }
    table
}

/// The column of each cell of a band: a load instead of a division in [`Board::branch_cell`].
static COLUMN_OF_CELL: [u32; 27] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8,
];

/// For each band, the other two, in the order `(band + 1) % 3`, `(band + 2) % 3`.
static OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// Bit `slot` for each slot: written as a table so that the loop in
/// [`Board::changed_slots`] compiles to vector compares with SSE2.
static SLOT_BITS: [u32; 27] = build_slot_bits();

const fn build_slot_bits() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut slot = 0;
    while slot < 27 {
        table[slot] = 1 << slot;
        slot += 1;
    }
    table
}

/// The cells of a slot's candidates `old` that lie on some placement of its digit in the band
/// (locked candidates between its rows and boxes); zero when none does.
#[inline(always)]
fn locked_in_band(old: u32) -> u32 {
    old & PERMUTABLE_CELLS[minirow_pattern(old)]
}

/// The minirow pattern of a band's 27 bits: bit `3 × row + box` when that minirow holds one.
#[inline(always)]
fn minirow_pattern(cells: u32) -> usize {
    usize::from(
        ROW_MINIROWS[0][(cells & 0x1ff) as usize]
            | ROW_MINIROWS[1][(cells >> 9 & 0x1ff) as usize]
            | ROW_MINIROWS[2][(cells >> 18 & 0x1ff) as usize],
    )
}

/// The rows of `cells` (a band's 27 bits, a cell in each row) that hold one cell, as a 3-bit set.
///
/// Arithmetic, not a table: taking each row's lowest bit away cannot borrow across rows, as none
/// is empty, and a row is left empty just when it had one cell. Computed so, the band logic no
/// longer looks up its pattern a second time when the permutation step removed cells, and the
/// branch that chose whether to do so (mispredicted about a third of the time) is gone: `solve`
/// 1.03-1.05× as fast on 17 clue, magictour, 1905 and 1106, 0.99-1.00× on serg; `solve_lexmin`
/// 1.02-1.05× (two runs).
#[inline(always)]
fn single_rows(cells: u32) -> usize {
    // `COLUMN` is the lowest bit of each row.
    let rest = cells & cells.wrapping_sub(COLUMN);
    usize::from(rest & 0x1ff == 0)
        | usize::from(rest >> 9 & 0x1ff == 0) << 1
        | usize::from(rest >> 18 == 0) << 2
}

/// The cells of the rows of `cells` (a band's 27 bits, a cell in each row) that hold one
/// cell: [`single_rows`] widened to cells without a `ROW_CELLS` lookup, fewer instructions
/// for the full band logic (first as three masks: 1.01-1.03× on the public sets, two runs).
/// The light band logic keeps the lookup: the masks measured 0.76× on serg there, and this
/// form 0.98-0.99× (two runs).
///
/// Plain arithmetic, all three rows at once, with no comparison: written as three compares
/// and selects, LLVM turned the selects into branches once the band logic's pointing moved
/// to a pass of its own ([`Board::update_slots`]), and they mispredicted (0.58×).
#[inline(always)]
fn cells_of_single_rows(cells: u32) -> u32 {
    let rest = cells & cells.wrapping_sub(COLUMN);
    // Bit 8 of each row: set when the row of `rest` is not empty. Adding 0xff to the row's
    // low eight bits carries into bit 8 when any is set, and never past it.
    let not_single = (((rest & 0x3fd_feff) + 0x3fd_feff) | rest) & 0x402_0100;
    // Each such bit moved down to its row's bit 0 and widened to the row's nine cells; the
    // other rows are the single ones.
    (not_single >> 8).wrapping_mul(0x1ff) ^ BAND
}

/// The columns (bits 0-8) that hold at least one of `cells` (a band's 27 bits).
#[inline(always)]
fn columns_of(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1ff
}

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
struct Board {
    candidates: [u32; 27],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
    /// Cells with two candidates, per band, as naked singles last saw the band: up to date on
    /// the cells still open once propagation is done (a band whose candidates change is looked
    /// at again, and a cell placed since is masked out by `unsolved`), so that branching need
    /// not count candidates again.
    pairs: [u32; 3],
    /// Slots changed since propagation last reached its fixpoint (where every deduction had
    /// seen every slot as it is), noted by the changes made since: propagation starts from
    /// them.
    news: u32,
}

/// All 27 slots, one bit each.
const ALL_SLOTS: u32 = (1 << 27) - 1;

/// Where a digit's candidates in a band are kept: the nine digits of a band side by side.
#[inline(always)]
fn slot(digit: usize, band: usize) -> usize {
    9 * band + digit
}

/// Which cell the search branches on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branching {
    /// A cell with two candidates when there is one (else the fewest): the smallest trees.
    FewestCandidates,
    /// The first undecided cell in row-major order, smallest digit first: solutions are met in
    /// increasing lexicographic order.
    RowMajor,
}

impl Board {
    /// The puzzle's givens placed; `None` when two of them clash.
    ///
    /// All at once rather than one [`Board::place`] each: every given removes its digit from its
    /// peers, then every given cell keeps only its own digit. A given that clashes with another
    /// has lost its own digit to it by then.
    fn new(puzzle: &Grid) -> Option<Board> {
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
                // at hand: calling it (or a helper shared with it) cost 4-5% more instructions
                // on the serg and 17-clue sets (measured).
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
    fn place(&mut self, digit: usize, band: usize, cell: u32, cell_digits: u16) {
        self.clear_other_digits(digit, band, cell);
        let changed = self.place_alone(digit, band, cell);
        self.news |= u32::from(cell_digits) << (9 * band) | changed;
    }

    /// Removes `digit` from the candidates of `cell` (one bit) of `band`, noting it in `news`.
    fn remove_candidate(&mut self, digit: usize, band: usize, cell: u32) {
        self.eliminate(slot(digit, band), cell);
        self.news |= 1 << slot(digit, band);
    }

    /// Removes `cells` from the candidates of every digit of `band` but `digit`.
    #[inline(always)]
    fn clear_other_digits(&mut self, digit: usize, band: usize, cells: u32) {
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
    fn place_alone(&mut self, digit: usize, band: usize, cell: u32) -> u32 {
        let own = slot(digit, band);
        let index = cell.trailing_zeros() as usize;
        let in_band = self.eliminate_noted(own, PEERS_IN_BAND[index]);
        let in_other_bands = self.eliminate_in_other_bands(own, COLUMN << (index % 9));
        self.unsolved[band] &= !cell;
        in_band | in_other_bands
    }

    /// Removes `cells` from the candidates in `slot`.
    #[inline(always)]
    fn eliminate(&mut self, slot: usize, cells: u32) {
        self.candidates[slot] &= !cells;
    }

    /// [`Board::eliminate`], returning the slot's bit when that removed a candidate, else 0.
    #[inline(always)]
    fn eliminate_noted(&mut self, slot: usize, cells: u32) -> u32 {
        let candidates = self.candidates[slot];
        self.candidates[slot] = candidates & !cells;
        u32::from(candidates & cells != 0) << slot
    }

    /// Removes `cells` from the candidates of `slot`'s digit in the other two bands. Returns
    /// the slots that changed (slot bits); callers that compare with a copy ignore them.
    #[inline(always)]
    fn eliminate_in_other_bands(&mut self, slot: usize, cells: u32) -> u32 {
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
    /// compare was vectorised badly (scalar compares, then packing through memory): 9% more
    /// instructions on serg (cachegrind), 0.94× in time.
    #[inline(never)]
    fn changed_slots(&self, seen: &[u32; 27]) -> u32 {
        let mut changed = 0;
        for ((now, seen), bit) in self.candidates.iter().zip(seen).zip(&SLOT_BITS) {
            changed |= ((now != seen) as u32).wrapping_neg() & bit;
        }
        changed
    }

    /// The band logic for the slots in `changed` (slot bits), one digit in one band each:
    /// locked candidates between its boxes and rows and hidden singles in its rows, then a box
    /// confined to one column taking that column from the other bands (pointing), then the
    /// singles placed. `None` on a contradiction, else the slots that now have news for the
    /// band logic: those it changed after looking at them, or changed and did not look at.
    ///
    /// A row with one cell left takes the digit there. Its other peers in the band for this
    /// digit are gone already: the row has no other cell, and the other rows lost the cell's
    /// box to the locked-candidates step (the row can only take the digit in that box). That
    /// box then has the one cell, so its column is among the locked columns that the other
    /// bands lose.
    ///
    /// Pointing is a second pass over the batch, after every slot of it has been looked at.
    /// Done slot by slot, it stored to the same digit's slots in the other bands, and when one
    /// of those came later in the batch (a fifth of all slots looked at on the hard sets), its
    /// load waited on that store, and so on the whole chain of table lookups before it, even
    /// when nothing changed. In a pass of its own the slots of a batch run side by side; a
    /// slot that pointing changes after its turn has news and is looked at again in the next
    /// batch: 5-8% more slots looked at, and still 1.02-1.03× as fast on magictour, 1.01-1.03×
    /// on 1905 and 1106, 0.99-1.00× on serg, 0.98-0.99× on 17 clue (five runs). The pass takes
    /// each slot's columns as they are then, which may be fewer than the batch left them
    /// (pointing from another band of the digit came first): any such removal is sound, and a
    /// row single that loses its cell so leaves its row empty, a contradiction the slot's next
    /// look finds.
    ///
    /// The cells of row singles are cleared from the band's other digits once, at the end of
    /// the batch, not slot by slot: a slot's clear stores to all nine slots of its band, so the
    /// next slot of that band waited on it (its load on the clear's store, behind the whole
    /// chain of table lookups), and so did whether to clear, which could not be predicted on
    /// hard boards. A slot that loses a cell to the clear has news and is looked at again. Two
    /// digits claiming one cell in a batch is a contradiction, caught here from the claims so
    /// far: the band logic would meet it later (the row is left one cell short), but on the
    /// hard sets nearly half of all dead ends are found this way, and leaving it to later
    /// measured 0.95-1.00×. 1.02-1.05× as fast on the hard sets, 1.07-1.08× on 17 clue (the
    /// givens), 1.08-1.10× in `solve_lexmin` (two runs).
    ///
    /// The slots with news are noted as the batch goes (a slot changed before its turn in the
    /// batch has no news after it), not found by comparing all 27 slots with a copy, whose
    /// loads waited on the batch's stores: 1.05× on the hard sets, 0.99× on 17 clue, 1.05× in
    /// `solve_lexmin`. The same kind of wait is what the pointing pass removes.
    #[inline(always)]
    fn update_slots(&mut self, changed: u32) -> Option<u32> {
        // The cells claimed by row singles in this batch, per band and per slot.
        let mut claimed = [0u32; 3];
        let mut claimed_by = [0u32; 27];
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
                return None;
            }
            // Looked at now, with all that the batch did so far: no news.
            next &= !(1 << slot);
            self.candidates[slot] = cells;
            claimed[band] |= singles;
            claimed_by[slot] = singles;
        }
        // Pointing, once every slot of the batch has been looked at.
        let mut rest = changed;
        while rest != 0 {
            let slot = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let columns = LOCKED_COLUMNS[columns_of(self.candidates[slot]) as usize];
            next |= self.eliminate_in_other_bands(slot, columns);
        }
        for (band, &gone) in claimed.iter().enumerate() {
            if gone != 0 {
                self.unsolved[band] &= !gone;
                let slots = 9 * band..9 * band + 9;
                for ((candidates, &own), &bit) in self.candidates[slots.clone()]
                    .iter_mut()
                    .zip(&claimed_by[slots.clone()])
                    .zip(&SLOT_BITS[slots])
                {
                    let lost = *candidates & gone & !own;
                    *candidates ^= lost;
                    next |= u32::from(lost != 0).wrapping_neg() & bit;
                }
            }
        }
        Some(next)
    }

    /// The light band logic ([`Step::Light`]): [`Board::update_slots`] without pointing, and
    /// with each row single's cells cleared from the band's other digits at once. `seen`
    /// holds each slot as the band logic last left it; returns the slots that differ from it.
    ///
    /// On boards whose singles come in cascades (serg), a slot that sees the cells earlier
    /// slots took finds more in the same batch: deferring the clear measured 0.93× there. And
    /// comparing with `seen` costs less there than noting (0.84×).
    #[inline(always)]
    fn update_slots_light(&mut self, changed: u32, seen: &mut [u32; 27]) -> Option<u32> {
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
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
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
    fn naked_singles(&mut self, touched: u32) -> Option<u32> {
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
    fn column_logic(&mut self, touched: u32) -> Option<u32> {
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
    /// cheapest), then the column logic, then naked singles. False on a contradiction.
    ///
    /// The column logic before naked singles measured 1.02-1.04× faster than after: the band
    /// logic already does most of the column work, and what is left is cheaper to finish
    /// before counting candidates.
    #[inline(always)]
    fn propagate(&mut self) -> bool {
        self.propagate_with::<true>()
    }

    /// [`Board::propagate`], leaving out the column logic unless `COLUMNS` (the givens' step,
    /// see [`Step`]). One copy of the loop for each, so that neither tests a flag.
    ///
    /// Every deduction notes the slots it changes, so no round compares the slots with a copy
    /// of them, and the board need not carry one: 136 bytes to copy per search node instead of
    /// 244, and one store less per slot looked at: 1.02-1.05× on every public set (two runs).
    fn propagate_with<const COLUMNS: bool>(&mut self) -> bool {
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

    /// Propagation by the light band logic and naked singles, no column logic
    /// ([`Step::Light`]). The light band logic finds its slots with news by comparing them
    /// with a copy of the candidates made as propagation starts, kept up to date: on the
    /// boards that search light, that costs less than noting (0.84×). The slots noted in
    /// `news` are looked at first, so the copy need not be older than the changes.
    fn propagate_light(&mut self) -> bool {
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

    /// Keeps this board's search to solutions lexicographically smaller than `bound` (a solved
    /// board): finds the first cell, in row-major order, that is not placed with the bound's
    /// digit. Placed with a larger digit: nothing below can be smaller (`None`). Placed with a
    /// smaller one: everything below is smaller (`Some(false)`). Open: its candidates above the
    /// bound's digit go (`Some(true)` when that removed any). All cells equal: `None`.
    fn restrict_below(&mut self, bound: &Board) -> Option<bool> {
        for band in 0..3 {
            let placed = !self.unsolved[band] & BAND;
            let mut equal = 0;
            for digit in 0..9 {
                equal |= self.candidates[slot(digit, band)] & bound.candidates[slot(digit, band)];
            }
            let rest = !(equal & placed) & BAND;
            if rest == 0 {
                continue;
            }
            let cell = rest & rest.wrapping_neg();
            let limit = bound.digits_of(band, cell).trailing_zeros() as usize;
            if placed & cell != 0 {
                let digit = self.digits_of(band, cell).trailing_zeros() as usize;
                return if digit > limit { None } else { Some(false) };
            }
            let mut removed = false;
            self.news |= (0x1ff >> (limit + 1) << (limit + 1)) << (9 * band);
            for digit in limit + 1..9 {
                let candidates = &mut self.candidates[slot(digit, band)];
                removed |= *candidates & cell != 0;
                *candidates &= !cell;
            }
            return Some(removed);
        }
        None
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The candidate digits (bit `d` for digit `d + 1`) of `cell` in `band`.
    ///
    /// Gathered by shifts, not by a test per digit: which digits a cell keeps cannot be
    /// predicted, and the tests compiled to branches that mispredicted (without them: `solve`
    /// 1.06× as fast on serg, 1.01-1.03× on the other public sets; measured).
    fn digits_of(&self, band: usize, cell: u32) -> u16 {
        let index = cell.trailing_zeros();
        let mut digits = 0;
        for digit in 0..9 {
            digits |= (self.candidates[slot(digit, band)] >> index & 1) << digit;
        }
        digits as u16
    }

    /// The cell to branch on, as (band, cell bit); the board must have an unsolved cell.
    fn branch_cell(&self, branching: Branching) -> (usize, u32) {
        if branching == Branching::FewestCandidates {
            debug_assert!((0..3).all(|band| {
                let (_, twice, more) = self.candidate_counts(band);
                self.pairs[band] & self.unsolved[band] == twice & !more & self.unsolved[band]
            }));
            // All pairs of the board in one set, band `b` at bits `32b..32b + 27`, so that the
            // scan is one loop whose exit mispredicts once, not once a band (1.01-1.02× on the
            // hard sets), and a place splits into band and cell by shifts (1.02-1.03× more). A
            // pair's key is its score above its place, reversed, so the largest key is the
            // first best pair. The scan scores open peers; the two best pairs are then scored
            // again with their two-candidate peers that share a digit (`with_pair_peers`):
            // 5-8% fewer nodes on the hard sets, `solve` 1.02-1.03× on magictour, 1.00-1.02×
            // on the others. Rescoring every pair saves twice the nodes but costs more than
            // it saves (0.89-0.95×).
            let mut pairs = u128::from(self.pairs[0] & self.unsolved[0])
                | u128::from(self.pairs[1] & self.unsolved[1]) << 32
                | u128::from(self.pairs[2] & self.unsolved[2]) << 64;
            // The two largest keys so far, `best` first.
            let (mut best, mut second) = (0, 0);
            while pairs != 0 {
                let place = pairs.trailing_zeros();
                pairs &= pairs - 1;
                let (band, index) = ((place >> 5) as usize, (place & 31) as usize);
                // Open peers: in the band, and in the column in the other two bands.
                let in_band = PEERS_IN_BAND[index] & self.unsolved[band];
                let column = COLUMN_OF_CELL[index];
                let [next, after] = OTHER_BANDS[band];
                let in_column = (self.unsolved[next] >> column & COLUMN)
                    + (self.unsolved[after] >> column & COLUMN);
                let key = count_peers(in_band, in_column) << 8 | (0xff - place);
                second = second.max(key.min(best));
                best = best.max(key);
            }
            if best != 0 {
                let best = self.with_pair_peers(best).max(self.with_pair_peers(second));
                let place = 0xff - (best & 0xff);
                return ((place >> 5) as usize, 1 << (place & 31));
            }
            // No pair: the first open cell with the fewest candidates. Each cell's count is
            // added up bit-sliced, one 27-bit plane per binary digit of the counts.
            let mut best = (0, 0, u32::MAX);
            for band in 0..3 {
                let mut planes = [0u32; 4];
                for digit in 0..9 {
                    let mut carry = self.candidates[slot(digit, band)];
                    for plane in planes.iter_mut() {
                        let sum = *plane ^ carry;
                        carry &= *plane;
                        *plane = sum;
                    }
                }
                for count in 1..best.2.min(10) {
                    let mut cells = self.unsolved[band];
                    for (bit, plane) in planes.iter().enumerate() {
                        // Keeps the cells whose count has this bit as `count` has it.
                        cells &= !(*plane ^ (count >> bit & 1).wrapping_neg());
                    }
                    if cells != 0 {
                        best = (band, cells & cells.wrapping_neg(), count);
                        break;
                    }
                }
            }
            return (best.0, best.1);
        }
        let band = self.unsolved.iter().position(|&u| u != 0).unwrap_or(0);
        let rest = self.unsolved[band];
        (band, rest & rest.wrapping_neg())
    }

    /// A pair's key from [`Board::branch_cell`] (open peers above its reversed place; zero
    /// for none) with its score raised by its two-candidate peers that share a digit with it,
    /// each counted once: such a peer is left with one candidate in the child that takes
    /// that digit, so the child's propagation goes further.
    #[inline(always)]
    fn with_pair_peers(&self, key: u32) -> u32 {
        if key == 0 {
            return 0;
        }
        let place = 0xff - (key & 0xff);
        let (band, index) = ((place >> 5) as usize, (place & 31) as usize);
        let digits = self.digits_of(band, 1 << index);
        let (low, high) = (
            digits.trailing_zeros() as usize,
            15 - digits.leading_zeros() as usize,
        );
        let sharing = |band: usize| {
            self.pairs[band]
                & self.unsolved[band]
                & (self.candidates[slot(low, band)] | self.candidates[slot(high, band)])
        };
        let in_band = PEERS_IN_BAND[index] & sharing(band);
        let column = COLUMN_OF_CELL[index];
        let [next, after] = OTHER_BANDS[band];
        let in_column = (sharing(next) >> column & COLUMN) + (sharing(after) >> column & COLUMN);
        key + (count_peers(in_band, in_column) << 8)
    }

    /// The first two-candidate cell, as (band, cell bit), if there is one.
    fn first_pair(&self) -> Option<(usize, u32)> {
        for band in 0..3 {
            let pairs = self.pairs[band] & self.unsolved[band];
            if pairs != 0 {
                return Some((band, pairs & pairs.wrapping_neg()));
            }
        }
        None
    }

    /// The number of cells not yet placed.
    fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|cells| cells.count_ones()).sum()
    }

    fn to_grid(self) -> Grid {
        let mut cells = [0u8; 81];
        for band in 0..3 {
            for digit in 0..9 {
                let mut rest = self.candidates[slot(digit, band)];
                while rest != 0 {
                    cells[27 * band + rest.trailing_zeros() as usize] = digit as u8 + 1;
                    rest &= rest - 1;
                }
            }
        }
        Grid::from_known_digits(cells)
    }
}

/// What a search does at its nodes besides propagating and branching.
trait Visit {
    /// Called at every node once propagation is done: may narrow the board (`Some(true)`, and
    /// propagation runs again), leave it (`Some(false)`) or cut the node (`None`).
    fn narrow(&mut self, _board: &mut Board) -> Option<bool> {
        Some(false)
    }

    /// Called on each solution, in the order the branching meets them; true stops the search.
    fn solution(&mut self, solved: &Board) -> bool;
}

/// A plain search calls a closure on each solution and narrows nothing.
impl<F: FnMut(&Board) -> bool> Visit for F {
    fn solution(&mut self, solved: &Board) -> bool {
        self(solved)
    }
}

/// Branch and bound for the smallest solution: every solution met becomes the bound (each is
/// smaller than the one before), and every node is cut down to what can beat it
/// ([`Board::restrict_below`]). When the search ends, the bound is the smallest solution. It
/// stops early at its `stop_at`-th solution (`u32::MAX`: never).
struct Bound {
    best: Option<Board>,
    found: u32,
    stop_at: u32,
}

impl Bound {
    fn stopping_at(stop_at: u32) -> Bound {
        Bound {
            best: None,
            found: 0,
            stop_at,
        }
    }
}

impl Visit for Bound {
    fn narrow(&mut self, board: &mut Board) -> Option<bool> {
        match &self.best {
            Some(bound) => board.restrict_below(bound),
            None => Some(false),
        }
    }

    fn solution(&mut self, solved: &Board) -> bool {
        self.best = Some(*solved);
        self.found += 1;
        self.found >= self.stop_at
    }
}

/// Depth-first search from `board`, handing each solution to `visit` in the order the branching
/// meets them until it says stop. Returns true when it was stopped that way. At most
/// `budget.dead_ends_left` dead ends (nodes that fail or are cut) are met: the last one stops
/// the search as if `visit` had said stop. `budget.step` says how much work a node does.
///
/// `board` is the search's own to change (the caller's copy, left in no particular state):
/// taken by value, a child's board was copied twice, into the child and again into the call
/// (LLVM did not merge the two `memcpy` calls); by reference, once: `solve` 1.02-1.03× on
/// the hard sets and 1.01-1.02× on 17 clue, 1.03-1.04× on serg, `solve_lexmin` 1.01-1.04×.
///
/// Dead ends, not nodes, measure how hard a board is for a branching: a search that meets
/// solutions easily fills one cell per node on a nearly empty board (some 80 nodes) with few
/// dead ends, while a hard puzzle spends about half of its nodes on them.
fn search<V: Visit>(
    board: &mut Board,
    branching: Branching,
    budget: &mut Budget,
    visit: &mut V,
) -> bool {
    // Each turn of the loop is one node; the last digit of a branch needs no copy of the
    // board, so it continues here instead of in a child.
    loop {
        loop {
            let consistent = match budget.step {
                Step::Full => board.propagate_with::<true>(),
                Step::Light => board.propagate_light(),
                Step::Givens => board.propagate_with::<false>(),
            };
            if !consistent {
                return budget.dead_end();
            }
            match visit.narrow(board) {
                Some(false) => break,
                Some(true) => continue,
                None => return budget.dead_end(),
            }
        }
        if board.is_solved() {
            return visit.solution(board);
        }
        if budget.step == Step::Givens {
            budget.step = Step::Full;
        }
        let light_pair = if budget.step == Step::Light {
            board.first_pair()
        } else {
            None
        };
        let (band, cell) = match light_pair {
            Some(pair) => pair,
            None => board.branch_cell(branching),
        };
        let mut digits = board.digits_of(band, cell);
        while digits & (digits - 1) != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = *board;
            child.place(digit, band, cell, digits);
            if search(&mut child, branching, budget, visit) {
                return true;
            }
            // Every solution with this digit here has been reported: the rest of the search
            // is below the other digits, and knowing that sharpens their propagation.
            board.remove_candidate(digit, band, cell);
        }
        if digits == 0 {
            // Unreachable: propagation places a cell with one candidate and fails on none.
            return false;
        }
        board.place(digits.trailing_zeros() as usize, band, cell, digits);
    }
}

/// How much work a search node does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Full propagation (column logic included) and scored branching.
    Full,
    /// Propagation of the givens without the column logic (pointing kept), `Full` from the
    /// first branching on.
    ///
    /// Propagating the givens without the column logic measured 1.03-1.05× as fast on serg
    /// (before it started `Light`) and 1.00-1.04× on the other public sets: the column logic's
    /// share of the givens' work is large, and a hard board catches up on it at its first full
    /// nodes (the digits whose candidates they change). Finishing the column logic over every
    /// digit before a hard board's first full branching made no measurable difference.
    ///
    /// The first branching used to go `Light` as well when propagating the givens had left
    /// fewer than [`LIGHT_OPEN_CELLS`] cells open (an eighth of magictour, a quarter of
    /// 17 clue); going `Full` there measured 1.03× on 17 clue and magictour, the other sets
    /// unchanged (two runs): once the full band logic had become cheaper, those boards gained
    /// more from full nodes than they saved by light ones.
    Givens,
    /// No column logic, no pointing in the band logic (a box confined to one column taking it
    /// from the other bands), and the first two-candidate cell taken unscored, until the first
    /// dead end; `Full` from then on. `solve` starts here, givens included, when fewer than
    /// [`LIGHT_OPEN_CELLS`] cells are open before any propagation (all of serg, one puzzle of
    /// 1905).
    ///
    /// A board with few open cells usually has its solutions close by (Serg's benchmark: 30-49
    /// open cells, many solutions, few dead ends), and there the column logic and the scoring
    /// of pairs cost more than they save: 1.17-1.19× as fast on that set. A board that turns
    /// out hard meets a dead end within a few nodes and is searched in full from then on. The
    /// other public sets start with 50 open cells or more, so they never go light.
    ///
    /// Pointing adds eliminations to the other bands, which mostly send their slots through
    /// the band logic again for nothing on such boards: leaving it out of the light nodes and
    /// of the givens of a board that starts light measured 1.06× as fast on serg; out of the
    /// light nodes alone, 1.01×. It stays in `Givens`: the givens' pointing is what a hard
    /// board's search starts from (without it there as well, 17 clue measured 0.67×).
    Light,
}

/// How far a search may go, and how it goes.
struct Budget {
    /// Dead ends (nodes that fail or are cut) still allowed; the last one stops the search.
    dead_ends_left: u64,
    step: Step,
}

impl Budget {
    /// A search in full within `dead_ends_left` dead ends.
    fn dead_ends(dead_ends_left: u64) -> Budget {
        Budget {
            dead_ends_left,
            step: Step::Full,
        }
    }

    /// Counts a dead end; true (stop the search) when it was the last one. A light search is
    /// light no more.
    fn dead_end(&mut self) -> bool {
        self.step = Step::Full;
        self.dead_ends_left = self.dead_ends_left.saturating_sub(1);
        self.dead_ends_left == 0
    }
}

/// Branch and bound within `dead_ends` dead ends: the best solution it met, and whether it
/// finished (then that is the smallest solution, `None` meaning there is none).
fn branch_and_bound(mut board: Board, dead_ends: u64) -> (Option<Board>, bool) {
    let mut bound = Bound::stopping_at(u32::MAX);
    let stopped = search(
        &mut board,
        Branching::FewestCandidates,
        &mut Budget::dead_ends(dead_ends),
        &mut bound,
    );
    (bound.best, !stopped)
}

/// How branch and bound ended when asked to stop at a second solution.
enum Probe {
    /// It finished: the smallest solution (`None`: there is none).
    Smallest(Option<Board>),
    /// It met a second solution: the board has several.
    Several,
    /// It ran out of dead ends, with the best solution it had.
    OutOfDeadEnds(Option<Board>),
}

/// Branch and bound within `dead_ends` dead ends that stops at a second solution.
fn probe_by_bound(mut board: Board, dead_ends: u64) -> Probe {
    let mut bound = Bound::stopping_at(2);
    let mut budget = Budget {
        dead_ends_left: dead_ends,
        step: Step::Givens,
    };
    let stopped = search(
        &mut board,
        Branching::FewestCandidates,
        &mut budget,
        &mut bound,
    );
    match (stopped, bound.found) {
        (false, _) => Probe::Smallest(bound.best),
        (true, 2) => Probe::Several,
        (true, _) => Probe::OutOfDeadEnds(bound.best),
    }
}

/// A puzzle with one solution has at least 17 givens (McGuire, Tugemann and Civario, 2012), so
/// a board with more open cells than this has several solutions.
const MAX_UNIQUE_OPEN_CELLS: u32 = 81 - 17;

/// `solve` searches lightly ([`Step::Light`]) from a board whose givens leave fewer open cells
/// than this.
const LIGHT_OPEN_CELLS: u32 = 50;

/// No budget at all: 2^64 dead ends would take millennia.
const UNLIMITED: u64 = u64::MAX;

/// How many dead ends plain row-major search meets in `solve_lexmin` before branch and bound
/// takes over. Its first solution is the smallest, with no proof needed, and on a board with
/// many solutions it gets there with few dead ends (a nearly empty board meets about 20 in
/// some 80 nodes), where branch and bound would meet a long chain of ever smaller solutions;
/// a puzzle that is hard for row-major order meets dead ends from the start. 32 balanced the
/// instruction counts over the public sets, as published and randomly transformed, against
/// the slowest nearly empty boards.
const ROW_MAJOR_DEAD_ENDS: u64 = 32;

/// How many dead ends branch and bound meets before the witness method takes over from the
/// best solution it has. Hard puzzles with one solution need a few hundred (none of the public
/// sets more than 512); boards with very many solutions can need far more, one improvement at a
/// time, and the witness method bounds them.
const BOUND_DEAD_ENDS: u64 = 1024;

/// The search met its last allowed dead end before it could answer.
struct OutOfDeadEnds;

/// The first solution the search meets from `board` within `dead_ends` dead ends, as a solved
/// board; `Ok(None)` when there is none.
fn first_solution_within(
    board: Board,
    branching: Branching,
    dead_ends: u64,
) -> Result<Option<Board>, OutOfDeadEnds> {
    first_solution_with(board, branching, &mut Budget::dead_ends(dead_ends))
}

/// The first solution the search meets from `board` within `budget`, as a solved board;
/// `Ok(None)` when there is none.
fn first_solution_with(
    mut board: Board,
    branching: Branching,
    budget: &mut Budget,
) -> Result<Option<Board>, OutOfDeadEnds> {
    let mut found = None;
    search(&mut board, branching, budget, &mut |solved: &Board| {
        found = Some(*solved);
        true
    });
    match found {
        None if budget.dead_ends_left == 0 => Err(OutOfDeadEnds),
        found => Ok(found),
    }
}

/// The first solution the search meets from `board`, as a solved board.
fn first_solution(board: Board, branching: Branching) -> Option<Board> {
    first_solution_within(board, branching, UNLIMITED).unwrap_or(None)
}

/// The smallest solution, by the strategy that suits the board:
/// - a board with few open cells ([`LIGHT_OPEN_CELLS`], Serg's benchmark) usually has many
///   solutions close by: plain row-major search first, while it is cheap;
/// - otherwise, unless it has too few givens to have one solution ([`MAX_UNIQUE_OPEN_CELLS`]),
///   branch and bound first, stopped at a second solution: a board with one solution (every
///   hard puzzle) is then proved without a row-major search that could only fail (which cost a
///   quarter of the instructions on magictour); a board with several goes back to row-major
///   search, where its smallest solution is usually close;
/// - whatever outlasts those, by the witness method.
fn lexmin(board: Board) -> Option<Board> {
    if (LIGHT_OPEN_CELLS..=MAX_UNIQUE_OPEN_CELLS).contains(&board.open_cells()) {
        match probe_by_bound(board, BOUND_DEAD_ENDS) {
            Probe::Smallest(smallest) => return smallest,
            Probe::OutOfDeadEnds(best) => return lexmin_by_witness(board, best),
            Probe::Several => {}
        }
    }
    if let Ok(found) = first_solution_within(board, Branching::RowMajor, ROW_MAJOR_DEAD_ENDS) {
        return found;
    }
    match branch_and_bound(board, BOUND_DEAD_ENDS) {
        (smallest, true) => smallest,
        (best, false) => lexmin_by_witness(board, best),
    }
}

/// The smallest solution, found cell by cell in row-major order with a witness.
///
/// A witness is a solution of the current board. At the first undecided cell, only digits below
/// the witness's need a test, each a fast fewest-candidates search: a digit that leads to a
/// solution is kept (its solution the new witness); one that leads to none is removed; when all
/// fail, the witness's digit is kept. Every test is a search that branches well, so any board
/// costs at most (cells × digits) such searches, however its solutions are spread. `witness`
/// is a solution to start from, if one is known.
fn lexmin_by_witness(mut board: Board, witness: Option<Board>) -> Option<Board> {
    if !board.propagate() {
        return None;
    }
    let mut witness = match witness {
        Some(witness) => witness,
        None => first_solution(board, Branching::FewestCandidates)?,
    };
    while !board.is_solved() {
        let (band, cell) = board.branch_cell(Branching::RowMajor);
        let target = witness.digits_of(band, cell);
        let cell_digits = board.digits_of(band, cell);
        let mut below = cell_digits & (target - 1);
        let mut chosen = target.trailing_zeros() as usize;
        while below != 0 {
            let digit = below.trailing_zeros() as usize;
            below &= below - 1;
            let mut child = board;
            child.place(digit, band, cell, cell_digits);
            if let Some(solved) = first_solution(child, Branching::FewestCandidates) {
                witness = solved;
                chosen = digit;
                break;
            }
            board.remove_candidate(digit, band, cell);
        }
        board.place(chosen, band, cell, cell_digits);
        // The witness satisfies every constraint of the board, so this cannot fail.
        let consistent = board.propagate();
        debug_assert!(consistent);
    }
    Some(board)
}

/// Some solution of `puzzle`, or `None` when it has none (givens that clash included).
///
/// # Complexity
/// Exponential in the worst case, as Sudoku is NP-complete in general; on 9x9 puzzles the
/// propagation and two-candidate branching keep the search to a few hundred nodes at most on
/// the hardest public sets (see the README's figures).
///
/// ```
/// use sudoku_core::{check_solution, solve, Grid};
/// let puzzle = Grid::EMPTY;
/// let solution = solve(&puzzle).expect("the empty grid has solutions");
/// assert_eq!(check_solution(&puzzle, &solution), Ok(()));
/// ```
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    let board = Board::new(puzzle)?;
    let mut budget = Budget {
        dead_ends_left: UNLIMITED,
        step: if board.open_cells() < LIGHT_OPEN_CELLS {
            Step::Light
        } else {
            Step::Givens
        },
    };
    first_solution_with(board, Branching::FewestCandidates, &mut budget)
        .unwrap_or(None)
        .map(Board::to_grid)
}

/// The lexicographically smallest solution of `puzzle` (the smallest 81-digit number read
/// row by row), or `None` when it has none.
///
/// Propagation removes only candidates that belong to no solution, so every solution below a
/// node agrees on the cells already decided; branching on the first undecided cell in row-major
/// order, smallest digit first, therefore meets solutions in increasing order, and the first one
/// met is the smallest. That search gets a small budget of dead ends; past it, branch and bound
/// over the fast search proves the answer, and boards with very many solutions finish by the
/// witness method (ARCHITECTURE.md has the details).
///
/// # Complexity
/// Like [`solve`], exponential in the worst case; on the public sets within about twice the
/// time of [`solve`].
///
/// ```
/// use sudoku_core::{solve_lexmin, Format, Grid};
/// let smallest = solve_lexmin(&Grid::EMPTY).unwrap();
/// assert!(smallest.display(Format::Rows).to_string().starts_with("123456789\n456789123\n"));
/// ```
pub fn solve_lexmin(puzzle: &Grid) -> Option<Grid> {
    lexmin(Board::new(puzzle)?).map(Board::to_grid)
}

/// The smallest solution by plain row-major search alone: for tests and benchmarks.
#[doc(hidden)]
pub fn solve_lexmin_row_major(puzzle: &Grid) -> Option<Grid> {
    first_solution(Board::new(puzzle)?, Branching::RowMajor).map(Board::to_grid)
}

/// The smallest solution by the witness method alone: for tests and benchmarks.
#[doc(hidden)]
pub fn solve_lexmin_by_witness(puzzle: &Grid) -> Option<Grid> {
    lexmin_by_witness(Board::new(puzzle)?, None).map(Board::to_grid)
}

/// The smallest solution by branch and bound alone, `Err(())` when it meets `dead_ends` dead
/// ends first: for tests and benchmarks.
#[doc(hidden)]
#[allow(clippy::result_unit_err)]
pub fn solve_lexmin_by_bound(puzzle: &Grid, dead_ends: u64) -> Result<Option<Grid>, ()> {
    match Board::new(puzzle) {
        Some(board) => match branch_and_bound(board, dead_ends) {
            (smallest, true) => Ok(smallest.map(Board::to_grid)),
            (_, false) => Err(()),
        },
        None => Ok(None),
    }
}

/// The number of solutions of `puzzle`, counting stopped at `limit`: the result is
/// `min(solutions, limit)`. `count_solutions(p, 2) == 1` says the solution is unique.
///
/// ```
/// use sudoku_core::{count_solutions, Grid};
/// assert_eq!(count_solutions(&Grid::EMPTY, 1000), 1000);
/// ```
pub fn count_solutions(puzzle: &Grid, limit: u64) -> u64 {
    let mut count = 0;
    if limit == 0 {
        return 0;
    }
    if let Some(mut board) = Board::new(puzzle) {
        search(
            &mut board,
            Branching::FewestCandidates,
            &mut Budget::dead_ends(UNLIMITED),
            &mut |_: &Board| {
                count += 1;
                count >= limit
            },
        );
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (band, cell) = noted.branch_cell(Branching::FewestCandidates);
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
        let puzzles = include_str!("../tests/data/magictour_top150.txt")
            .lines()
            .chain(include_str!("../tests/data/serg_benchmark_150.txt").lines());
        for line in puzzles {
            let board = Board::new(&line.parse().expect("a puzzle")).expect("no clash");
            for light in [false, true] {
                check_noting(&board, light, &mut 200);
            }
        }
    }
}
