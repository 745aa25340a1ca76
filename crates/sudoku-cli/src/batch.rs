//! Work over many puzzles: input split into numbered lines, a parallel map that keeps the input
//! order and streams its results block by block, and the progress bar.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Items handed to the workers at once; results are written after each block, so output
/// streams and memory holds one block of results.
const BLOCK: usize = 4096;

/// Inputs at least this long get a progress bar (when stderr is a terminal).
const PROGRESS_FROM: usize = 2000;

/// The lines of an input, each with its number (from 1): line ends (`\n`, `\r\n`) and trailing
/// whitespace removed, trailing blank lines dropped. Blank lines inside stay, so numbers and
/// output lines stay aligned with the input.
pub fn lines(text: &[u8]) -> Vec<(usize, &[u8])> {
    let mut lines: Vec<(usize, &[u8])> = text
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii_end)
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .collect();
    while lines.last().is_some_and(|(_, line)| line.is_empty()) {
        lines.pop();
    }
    lines
}

/// The number of workers when `--jobs` is not given: every core.
pub fn default_jobs() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Maps `work` over `items` on `jobs` threads and hands the results to `emit` in input order,
/// one block at a time; stops early when `emit` fails (a closed pipe) and returns its error.
pub fn map_ordered<T, R, E>(
    items: &[T],
    jobs: usize,
    progress: &ProgressBar,
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(&[R]) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    for block in items.chunks(BLOCK) {
        let results = map_block(block, jobs.max(1), &work);
        emit(&results)?;
        progress.inc(block.len() as u64);
    }
    progress.finish_and_clear();
    Ok(())
}

fn map_block<T: Sync, R: Send>(
    block: &[T],
    jobs: usize,
    work: &(impl Fn(&T) -> R + Sync),
) -> Vec<R> {
    if jobs == 1 || block.len() == 1 {
        return block.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut indexed: Vec<(usize, R)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(block.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = block.get(i) else { break };
                        done.push((i, work(item)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    indexed.sort_unstable_by_key(|(i, _)| *i);
    indexed.into_iter().map(|(_, r)| r).collect()
}

/// A progress bar on stderr for `total` items, hidden unless stderr is a terminal and the input
/// is long (or its items `slow` and more than one).
pub fn progress(total: usize, what: &str, slow: bool) -> ProgressBar {
    let long = if slow {
        total > 1
    } else {
        total >= PROGRESS_FROM
    };
    if !long || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what} · {{per_sec}} · eta {{eta}}"
    ))
    .expect("a valid template");
    bar.set_style(style);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_trimmed_and_trailing_blanks_dropped() {
        let empty: &[u8] = b"";
        assert_eq!(
            lines(b"a \r\n\nb\r\n\n \n"),
            [(1, &b"a"[..]), (2, empty), (3, &b"b"[..])]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn results_keep_the_input_order_on_many_threads() {
        let items: Vec<u64> = (0..10_000).collect();
        let mut out = Vec::new();
        map_ordered(
            &items,
            4,
            &ProgressBar::hidden(),
            |&x| {
                // Uneven work, so threads finish out of order.
                (0..(x % 7) * 100).fold(x, |a, b| a ^ b) ^ (0..(x % 7) * 100).fold(0, |a, b| a ^ b)
            },
            |block| {
                out.extend_from_slice(block);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(out, items);
    }
}
