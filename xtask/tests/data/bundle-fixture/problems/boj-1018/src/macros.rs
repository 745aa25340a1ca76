//! The solution's own macros, brought into `main` by `#[macro_use] mod macros;`.

macro_rules! add {
    ($a:expr, $b:expr) => {
        $a + $b
    };
}

#[allow(unused_macros)]
macro_rules! unused {
    () => {};
}
