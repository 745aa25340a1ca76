//! Prints which way the problem's own build script set `own_fast`: the crate build says `on`.

#[cfg(own_fast)]
fn mode() -> &'static str {
    "on"
}

#[cfg(not(own_fast))]
fn mode() -> &'static str {
    "off"
}

fn main() {
    println!("{} {}", mode(), cfg!(own_fast));
}
