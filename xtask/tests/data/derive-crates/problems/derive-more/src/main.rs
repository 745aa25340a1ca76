//! derive_more 2.1 beside strum 0.28: `Add`, `From` and `Display` (with `#[display("...")]` on
//! a struct and on variants, `#[from]` on a variant) from derive_more, whose derives are declared
//! inside a `macro_rules!`; `EnumString`, `IntoStaticStr` and `EnumIter` (with `#[strum(...)]`)
//! from strum; and std's `Default` on the same enum, whose `#[default]` stays with it. Reads N
//! moves `DIR K` (`U`, `D`, `L`, `R` or `stay`); prints each position as `(x, y)`, then the
//! total, the steps each way, and the default move.

use derive_more::{Add, Display, From};
use std::io::Read;
use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Add, From, Display)]
#[display("({x}, {y})")]
struct Point {
    x: i64,
    y: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, EnumString, IntoStaticStr, EnumIter)]
enum Dir {
    #[strum(serialize = "U")]
    Up,
    #[strum(serialize = "D")]
    Down,
    #[strum(serialize = "L")]
    Left,
    #[strum(serialize = "R")]
    Right,
    #[default]
    #[strum(serialize = "stay")]
    Stay,
}

impl Dir {
    fn step(self) -> Point {
        Point::from(match self {
            Dir::Up => (0, 1),
            Dir::Down => (0, -1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
            Dir::Stay => (0, 0),
        })
    }
}

#[derive(Debug, From, Display)]
enum Event {
    #[display("moved {_0}")]
    #[from]
    Moved(Point),
    #[display("unknown {_0}")]
    Unknown(String),
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut words = text.split_ascii_whitespace();
    let n: usize = words.next().unwrap().parse().unwrap();
    let mut at = Point::from((0, 0));
    let mut steps = [0i64; 5];
    for _ in 0..n {
        let dir = words.next().unwrap();
        let k: i64 = words.next().unwrap().parse().unwrap();
        let event = match dir.parse::<Dir>() {
            Ok(d) => {
                for _ in 0..k {
                    at = at + d.step();
                }
                steps[d as usize] += k;
                Event::from(at)
            }
            Err(_) => Event::Unknown(dir.to_string()),
        };
        println!("{}", event);
    }
    println!("{}", at);
    for d in Dir::iter() {
        let name: &'static str = d.into();
        println!("{} {}", name, steps[d as usize]);
    }
    let default: &'static str = Dir::default().into();
    println!("default {}", default);
}
