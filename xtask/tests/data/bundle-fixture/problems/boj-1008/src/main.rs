//! Fixture problem where pruning item by item breaks the bundle: the method `doubled` is called
//! only through `algo::call!`, which gets its name as an argument, so no code the pruner reads
//! calls it. The bundler's compile check finds that and keeps more of `algo`.

fn main() {
    let length = algo::Meters(algo::read_line().trim().parse().expect("a number"));
    println!("{}", algo::call!(length, doubled));
}
