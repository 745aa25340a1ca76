//! Fixture: N numbers around a circle and a position K (0-based); prints the number at K plus
//! the one after it, the last one's neighbour being the first. `neighbour_sum` forgets the wrap,
//! so K = N - 1 indexes past the end of the vector it was lent.

use std::io::Read;

fn neighbour_sum(numbers: &Vec<i64>, at: usize) -> i64 {
    let here = numbers[at];
    let next = numbers[at + 1];
    here + next
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = tokens.next().unwrap() as usize;
    let at = tokens.next().unwrap() as usize;
    let numbers: Vec<i64> = tokens.take(n).collect();
    println!("{}", neighbour_sum(&numbers, at));
}
