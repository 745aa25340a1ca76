//! Prints what the build script set: `hello` under cargo, nothing from a plain rustc.

fn main() {
    println!("{}", option_env!("OWN_GREETING").unwrap_or("unset"));
}
