//! Work on many items side by side, its results taken in the items' order: what stress,
//! shrinking and hack find does not depend on how many run at once.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use anyhow::Result;

/// Does `work` on each of `items`, `jobs` at once, and hands the results to `take` in the
/// items' order while it returns true; returns how many it took. A worker that finds a result
/// that `stops` (or an error) starts no item after it, so every item before the lowest such one
/// has run when it is taken: what `take` sees does not depend on `jobs`. `work` is also told
/// which worker (0 to `jobs` - 1) runs it, for what each worker keeps of its own.
pub fn in_order<I: Sync, T: Send>(
    items: &[I],
    jobs: usize,
    work: impl Fn(usize, &I) -> Result<T> + Sync,
    stops: impl Fn(&T) -> bool + Sync,
    mut take: impl FnMut(&T) -> bool,
) -> Result<usize> {
    let next = AtomicU64::new(0);
    // Items past this index need not run: one at or below it already stops the run.
    let stop = AtomicU64::new(u64::MAX);
    let (send, results) = mpsc::channel::<(usize, Result<T>)>();
    std::thread::scope(|scope| {
        for worker in 0..jobs.max(1) {
            let send = send.clone();
            let (next, stop, work, stops) = (&next, &stop, &work, &stops);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i as usize >= items.len() || i > stop.load(Ordering::SeqCst) {
                    break;
                }
                let result = work(worker, &items[i as usize]);
                if result.as_ref().map_or(true, stops) {
                    stop.fetch_min(i, Ordering::SeqCst);
                }
                if send.send((i as usize, result)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Results arrive in any order; they are taken in the items' order. Returning drops the
        // receiver, which ends the other workers after their current item.
        let mut done: BTreeMap<usize, Result<T>> = BTreeMap::new();
        let mut taken = 0;
        for (i, result) in results {
            done.insert(i, result);
            while let Some(result) = done.remove(&taken) {
                let more = take(&result?);
                taken += 1;
                if !more {
                    return Ok(taken);
                }
            }
        }
        Ok(taken)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::bail;
    use std::time::Duration;

    /// `in_order` over 1..=60 with items 17, 23 and 41 failing, each item taking a time that
    /// scrambles the order in which they finish: whatever `jobs` is, exactly items 1 to 17 are
    /// taken, in order, and an error at 12 wins over a failure at 17.
    #[test]
    fn results_are_taken_in_order_up_to_the_lowest_failure_whatever_the_jobs() {
        let items: Vec<u64> = (1..=60).collect();
        let work = |_: usize, &i: &u64| -> Result<u64> {
            std::thread::sleep(Duration::from_micros(i.wrapping_mul(0x9E37_79B9) % 3000));
            Ok(i)
        };
        let failing = |i: &u64| [17, 23, 41].contains(i);
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let taken = in_order(&items, jobs, work, failing, |&i| {
                seen.push(i);
                !failing(&i)
            })
            .unwrap();
            assert_eq!(taken, 17, "jobs {jobs}");
            assert_eq!(seen, (1..=17).collect::<Vec<_>>(), "jobs {jobs}");

            let erring = |worker: usize, &i: &u64| -> Result<u64> {
                if i == 12 {
                    bail!("the generator failed on {i}");
                }
                work(worker, &i)
            };
            let err = in_order(&items, jobs, erring, failing, |i| !failing(i)).unwrap_err();
            assert_eq!(err.to_string(), "the generator failed on 12", "jobs {jobs}");
        }
    }

    #[test]
    fn each_worker_is_told_its_own_number() {
        let items: Vec<u64> = (1..=40).collect();
        let seen = std::sync::Mutex::new(std::collections::BTreeSet::new());
        in_order(
            &items,
            3,
            |worker, _| {
                seen.lock().unwrap().insert(worker);
                std::thread::sleep(Duration::from_millis(1));
                Ok(())
            },
            |_| false,
            |_| true,
        )
        .unwrap();
        assert!(seen.into_inner().unwrap().iter().all(|&w| w < 3));
    }
}
