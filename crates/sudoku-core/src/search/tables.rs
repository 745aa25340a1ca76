//! The solver's constant tables and the bit tricks over them: peers in a band, the minirow
//! patterns of a band's rows, the cells of the patterns that survive the permutation argument,
//! locked columns, popcounts, and the slots of a digit's other bands. All built at compile time
//! by `const fn`.

/// The 27 cells of a band (three rows), one bit each.
pub(super) const BAND: u32 = 0x7ff_ffff;
/// Column 0 of a band (bits 0, 9, 18); shift left by the column.
pub(super) const COLUMN: u32 = 0x4_0201;
/// Box 0 of a band (columns 0-2 of its three rows); shift left by 3 × the box.
pub(super) const BOX: u32 = 0x1c_0e07;

/// For each cell of a band, the other cells of the band in its row, column or box.
pub(super) static PEERS_IN_BAND: [u32; 27] = build_peers_in_band();

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
pub(super) static ROW_MINIROWS: [[u16; 512]; 3] = build_row_minirows();

/// For a 3x3 pattern of non-empty minirows (bit `3 × row + box`), the minirows that lie on some
/// placement of the digit in this band: each row of the band takes the digit in exactly one box
/// and each box in exactly one row, so only minirows on a permutation survive. Zero when no
/// permutation fits: a contradiction.
pub(super) static PERMUTABLE: [u16; 512] = build_permutable();

/// `PERMUTABLE` widened to cells: for a minirow pattern, the cells of the band that lie in its
/// surviving minirows (zero when no permutation fits). One lookup instead of two on the band
/// logic's critical path.
pub(super) static PERMUTABLE_CELLS: [u32; 512] = build_permutable_cells();

/// For the columns (bits 0-8) where a digit may go in a band, those alone in their stack,
/// widened to the band's three rows: the digit's box in that stack lies in that column, so no
/// other band can hold the digit there.
pub(super) static LOCKED_COLUMNS: [u32; 512] = build_locked_columns();

/// The number of bits set in a 9-bit value.
pub(super) static POP9: [u8; 512] = build_pop9();

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
pub(super) fn count_peers(in_band: u32, in_column: u32) -> u32 {
    u32::from(POP9[(in_band & 0x1ff) as usize])
        + u32::from(POP9[(in_band >> 9 & 0x1ff) as usize])
        + u32::from(POP9[(in_band >> 18 & 0x1ff) as usize])
        + (in_column.wrapping_mul(COLUMN) >> 18 & 7)
}

/// A 3-bit set of rows of a band widened to their 27 cells.
pub(super) static ROW_CELLS: [u32; 8] = [
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

/// For each slot, the slots of the same digit in the next band and the one after (wrapping around):
/// a load instead of `(band + 1) % 3` and `(band + 2) % 3` in [`Board::eliminate_in_other_bands`]:
/// fewer instructions, though hardly less time, as the band logic waits on its table loads, not on
/// arithmetic (measured: docs/solver-journal.md, "Why the code is as it is").
pub(super) static SAME_DIGIT_OTHER_BANDS: [[u8; 2]; 27] = build_same_digit_other_bands();

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
pub(super) static COLUMN_OF_CELL: [u32; 27] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8,
];

/// For each band, the other two, in the order `(band + 1) % 3`, `(band + 2) % 3`.
pub(super) static OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// Bit `slot` for each slot: written as a table so that the loop in
/// [`Board::changed_slots`] compiles to vector compares with SSE2.
pub(super) static SLOT_BITS: [u32; 27] = build_slot_bits();

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
pub(super) fn locked_in_band(old: u32) -> u32 {
    old & PERMUTABLE_CELLS[minirow_pattern(old)]
}

/// The minirow pattern of a band's 27 bits: bit `3 × row + box` when that minirow holds one.
#[inline(always)]
pub(super) fn minirow_pattern(cells: u32) -> usize {
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
/// branch that chose whether to do so (mispredicted about a third of the time) is gone
/// (measured: docs/solver-journal.md, "Why the code is as it is").
#[inline(always)]
pub(super) fn single_rows(cells: u32) -> usize {
    // `COLUMN` is the lowest bit of each row.
    let rest = cells & cells.wrapping_sub(COLUMN);
    usize::from(rest & 0x1ff == 0)
        | usize::from(rest >> 9 & 0x1ff == 0) << 1
        | usize::from(rest >> 18 == 0) << 2
}

/// The cells of the rows of `cells` (a band's 27 bits, a cell in each row) that hold one
/// cell: [`single_rows`] widened to cells without a `ROW_CELLS` lookup, fewer instructions
/// for the full band logic. The light band logic keeps the lookup, which was faster there
/// (measured: docs/solver-journal.md, "Why the code is as it is").
///
/// Plain arithmetic, all three rows at once, with no comparison: written as three compares
/// and selects, LLVM turned the selects into branches once the band logic's pointing moved
/// to a pass of its own ([`Board::update_slots`]), and they mispredicted.
#[inline(always)]
pub(super) fn cells_of_single_rows(cells: u32) -> u32 {
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
pub(super) fn columns_of(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1ff
}
