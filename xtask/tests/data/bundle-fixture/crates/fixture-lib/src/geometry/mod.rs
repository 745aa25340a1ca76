//! Shapes: a nested module in `geometry/mod.rs` with its own child in `geometry/area.rs`.

pub mod area;

/// Multiplies through `crate::checked` (a `crate::` path to rewrite).
pub fn mul(a: i64, b: i64) -> i64 {
    crate::checked(a * b)
}

/// Unit lengths, built at compile time; kept because `area` names it.
pub(crate) static UNITS: [i64; 4] = build_units();

const fn build_units() -> [i64; 4] {
    let mut units = [0; 4];
    let mut i = 0;
    while i < 4 {
        units[i] = 1 << i;
        i += 1;
    }
    units
}

#[cfg(test)]
mod tests {
    #[test]
    fn multiplies() {
        assert_eq!(super::mul(3, 4), 12);
    }
}
