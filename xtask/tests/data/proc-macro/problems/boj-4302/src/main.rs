//! An attribute macro that reports an error (`#[times(0)]` expands to `compile_error!`): the
//! bundle is refused with the macro's own message.

use fixture_runtime::times;

#[times(0)]
fn zero() -> i64 {
    1
}

fn main() {
    println!("{}", zero());
}
