//! Linux's `/proc`, read for a running program and every process it started: their CPU time and
//! the time they were runnable, the program's resident memory, and whether this `/proc` is this
//! process's own. Pure reads of a
//! folder given as `root`, so the tests build a fake `/proc` and a `/proc` without `schedstat`
//! (a kernel without `CONFIG_SCHED_INFO`) or from another PID namespace is tested here too.
//!
//! What each file says, from proc(5) and the kernel's Documentation/scheduler/sched-stats.rst:
//! - `PID/stat`: fields 14 to 17 are `utime`, `stime` (the process's own CPU time, all its
//!   threads, ended ones too) and `cutime`, `cstime` (that of its children it has waited for,
//!   and theirs), in clock ticks;
//! - `PID/task/TID/children`: the pids of that thread's children (Linux 3.5 and later, where
//!   `CONFIG_PROC_CHILDREN` is set, as on Debian's, Ubuntu's and Fedora's kernels);
//! - `PID/task/TID/schedstat`: the thread's time on a CPU and its time waiting on a run queue
//!   for one, in nanoseconds, and its count of runs; `0 0 0` where the kernel keeps no such
//!   figures (`sched_info_on()` false: `proc_pid_schedstat` in fs/proc/base.c).
//!
//! A program and what it started are read as a tree, each process before its children: a child
//! that its parent reaps meanwhile is then missed for one look (its time is not yet in the
//! parent's `cutime` as read), never counted twice. What a child leaves behind when it ends
//! unwaited for, or a process that its parent left to `init`, is not counted; the runner kills
//! the program's process group at its end, so neither outlives it.

use std::path::Path;
use std::time::Duration;

/// The most processes one look reads, against a fork bomb.
const MOST_PROCESSES: usize = 4096;

/// What `/proc` says of a program and all it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeTimes {
    /// CPU time (user and system) of every process of the tree, and of the children they
    /// waited for.
    pub cpu: Duration,
    /// `cpu` and the time their live threads waited on a run queue for a CPU; `None` where no
    /// thread's `schedstat` could be read or the kernel keeps none (`0 0 0`).
    pub runnable: Option<Duration>,
}

/// The times of the process `pid` and every process it started that is still its descendant,
/// from the `/proc` at `root` (`ticks` clock ticks a second). `runnable` also reads every
/// thread's `schedstat`. `None` when `pid` itself cannot be read (it has ended, or is not
/// there).
pub fn tree_times(root: &Path, pid: i32, ticks: u64, runnable: bool) -> Option<TreeTimes> {
    let mut cpu_ticks: u64 = 0;
    let mut waited_nanos: u64 = 0;
    let mut told_waits = false;
    let mut to_read = vec![pid];
    let mut read = 0;
    while let Some(next) = to_read.pop() {
        read += 1;
        if read > MOST_PROCESSES {
            break;
        }
        let dir = root.join(next.to_string());
        let Some(ticks_used) = std::fs::read_to_string(dir.join("stat"))
            .ok()
            .and_then(|stat| stat_cpu_ticks(&stat))
        else {
            if next == pid {
                return None;
            }
            // Ended and reaped since its parent was read: its time is counted at the next look.
            continue;
        };
        cpu_ticks = cpu_ticks.saturating_add(ticks_used);
        let Ok(threads) = std::fs::read_dir(dir.join("task")) else {
            continue;
        };
        for thread in threads.flatten() {
            let path = thread.path();
            if runnable {
                if let Some(waits) = std::fs::read_to_string(path.join("schedstat"))
                    .ok()
                    .and_then(|text| schedstat_waits(&text))
                {
                    waited_nanos = waited_nanos.saturating_add(waits);
                    told_waits = true;
                }
            }
            if let Ok(children) = std::fs::read_to_string(path.join("children")) {
                to_read.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok()),
                );
            }
        }
    }
    let cpu = Duration::from_nanos(cpu_ticks.saturating_mul(1_000_000_000) / ticks.max(1));
    Some(TreeTimes {
        cpu,
        runnable: told_waits.then(|| cpu + Duration::from_nanos(waited_nanos)),
    })
}

/// `utime + stime + cutime + cstime` of a `/proc/PID/stat` line, in clock ticks.
fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    // Field N of proc(5) is fields[N - 3] here (the state, field 3, comes first).
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<i64>().ok());
    let sum = [14, 15, 16, 17]
        .into_iter()
        .map(|n| field(n).map(|t| t.max(0) as u64))
        .sum::<Option<u64>>()?;
    Some(sum)
}

/// The run-queue waits of a `schedstat` line (its second field, nanoseconds); `None` for a line
/// that tells nothing: unreadable, or `0 0 0` (the kernel keeps no figures).
pub fn schedstat_waits(text: &str) -> Option<u64> {
    let fields: Vec<u64> = text
        .split_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    match fields[..] {
        [0, 0, 0] => None,
        [_, waits, ..] => Some(waits),
        _ => None,
    }
}

/// How long the thread `tid` of this process has been runnable (on a CPU or waiting on a run
/// queue for one: the first two fields of its `schedstat`), from the `/proc` at `root`; `None`
/// when it has ended or the kernel keeps no figures.
pub fn own_thread_runnable(root: &Path, tid: i32) -> Option<Duration> {
    let text = std::fs::read_to_string(root.join(format!("self/task/{tid}/schedstat"))).ok()?;
    let waits = schedstat_waits(&text)?;
    let ran: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ran.saturating_add(waits)))
}

/// The resident memory of the process `pid` (its own, not its children's), in bytes, from the
/// `VmRSS:` line of `PID/status` (in kB, proc(5)) in the `/proc` at `root`: the figure whose peak
/// `wait4` reports at its end. `None` when it cannot be read (the process has ended).
pub fn resident_memory(root: &Path, pid: i32) -> Option<u64> {
    let text = std::fs::read_to_string(root.join(format!("{pid}/status"))).ok()?;
    resident_of_status(&text)
}

/// The `VmRSS:` of a `status` file's text, in bytes.
fn resident_of_status(text: &str) -> Option<u64> {
    let line = text.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    let mut words = line.split_whitespace();
    let kb: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then(|| kb.saturating_mul(1024))
}

/// Whether the `/proc` at `root` tells how long a process was runnable: its `self/schedstat`
/// (this process has run, so a kernel that keeps the figures prints more than `0 0 0`).
pub fn tells_waits(root: &Path) -> bool {
    std::fs::read_to_string(root.join("self/schedstat"))
        .ok()
        .and_then(|text| schedstat_waits(&text))
        .is_some()
}

/// Whether the `/proc` at `root` describes this process's PID namespace: its `self` names
/// `own_pid`, the pid this process has for itself. A `/proc` mounted for another namespace (a
/// container sharing its host's, say) would give another process's figures for a pid.
pub fn is_ours(root: &Path, own_pid: u32) -> bool {
    std::fs::read_link(root.join("self"))
        .is_ok_and(|target| target == Path::new(&own_pid.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    #[test]
    fn resident_memory_is_the_status_files_vm_rss() {
        let status = "Name:\tleak\nVmPeak:\t  600000 kB\nVmHWM:\t   50000 kB\n\
                      VmRSS:\t   49152 kB\nThreads:\t1\n";
        assert_eq!(resident_of_status(status), Some(48 << 20));
        assert_eq!(resident_of_status("Name:\tzombie\nThreads:\t1\n"), None);
        assert_eq!(resident_of_status("VmRSS:\t 12 pages\n"), None);
        let own = resident_memory(Path::new("/proc"), std::process::id() as i32);
        assert!(own.is_some_and(|bytes| bytes > 0), "{own:?}");
    }

    /// A fresh fake `/proc` for one test, removed when dropped.
    struct FakeProc(PathBuf);

    impl std::ops::Deref for FakeProc {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for FakeProc {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn fake_proc(name: &str) -> FakeProc {
        let root =
            std::env::temp_dir().join(format!("xtask-fake-proc-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        FakeProc(root)
    }

    /// A process `pid` whose one thread has `children` and `schedstat` (none: no file).
    fn process(root: &Path, pid: i32, ticks: [u64; 4], children: &[i32], schedstat: Option<&str>) {
        let task = root.join(format!("{pid}/task/{pid}"));
        fs::create_dir_all(&task).unwrap();
        let [utime, stime, cutime, cstime] = ticks;
        // The name holds a space and a parenthesis, as a name may.
        fs::write(
            root.join(format!("{pid}/stat")),
            format!(
                "{pid} (a) b) R 1 {pid} {pid} 0 -1 4194304 100 0 0 0 {utime} {stime} {cutime} \
                 {cstime} 20 0 1 0 5 1000 100\n"
            ),
        )
        .unwrap();
        let listed: Vec<String> = children.iter().map(|c| c.to_string()).collect();
        fs::write(task.join("children"), format!("{} ", listed.join(" "))).unwrap();
        if let Some(line) = schedstat {
            fs::write(task.join("schedstat"), line).unwrap();
        }
    }

    #[test]
    fn a_program_and_the_children_it_started_are_counted_together() {
        let root = fake_proc("tree");
        // A wrapper (1 tick of its own, 30 of a child it waited for) whose spinning child has
        // run 95 ticks and waited 40 ms for a CPU, its own child 5 ticks.
        process(
            &root,
            100,
            [1, 0, 30, 0],
            &[101],
            Some("10000000 2000000 3\n"),
        );
        process(
            &root,
            101,
            [90, 5, 0, 0],
            &[102],
            Some("950000000 40000000 80\n"),
        );
        process(&root, 102, [4, 1, 0, 0], &[], Some("50000000 0 2\n"));
        let times = tree_times(&root, 100, 100, true).unwrap();
        assert_eq!(times.cpu, Duration::from_millis(1310));
        assert_eq!(times.runnable, Some(Duration::from_millis(1352)));
        // The child alone, as a process of its own.
        let child = tree_times(&root, 101, 100, false).unwrap();
        assert_eq!(child.cpu, Duration::from_millis(1000));
        assert_eq!(child.runnable, None, "not asked");
        // Gone: no figure at all.
        assert_eq!(tree_times(&root, 999, 100, true), None);
    }

    #[test]
    fn a_child_reaped_between_two_reads_is_missed_not_counted_twice() {
        let root = fake_proc("reaped");
        // The parent lists a child whose /proc entry is already gone.
        process(&root, 200, [2, 0, 0, 0], &[201], Some("20000000 0 1\n"));
        let times = tree_times(&root, 200, 100, true).unwrap();
        assert_eq!(times.cpu, Duration::from_millis(20));
    }

    #[test]
    fn without_schedstat_or_with_zeros_there_is_no_runnable_time() {
        // A kernel without CONFIG_SCHED_INFO: no file. One with it off: 0 0 0. Neither is CPU
        // time standing in for the runnable time.
        for (name, line) in [("none", None), ("zeros", Some("0 0 0\n"))] {
            let root = fake_proc(name);
            process(&root, 300, [50, 0, 0, 0], &[], line);
            let times = tree_times(&root, 300, 100, true).unwrap();
            assert_eq!(times.cpu, Duration::from_millis(500));
            assert_eq!(times.runnable, None, "{name}");
            fs::create_dir_all(root.join("self")).unwrap();
            if let Some(line) = line {
                fs::write(root.join("self/schedstat"), line).unwrap();
            }
            assert!(!tells_waits(&root), "{name}");
        }
        let root = fake_proc("told");
        fs::create_dir_all(root.join("self")).unwrap();
        fs::write(root.join("self/schedstat"), "7000 0 1\n").unwrap();
        assert!(tells_waits(&root));
        assert_eq!(schedstat_waits("12 34 5"), Some(34));
        fs::create_dir_all(root.join("self/task/77")).unwrap();
        fs::write(root.join("self/task/77/schedstat"), "3000000 2000000 9\n").unwrap();
        assert_eq!(
            own_thread_runnable(&root, 77),
            Some(Duration::from_millis(5))
        );
        assert_eq!(own_thread_runnable(&root, 78), None);
        assert_eq!(schedstat_waits("garbage"), None);
    }

    #[test]
    fn a_proc_of_another_pid_namespace_is_not_ours() {
        let root = fake_proc("namespace");
        std::os::unix::fs::symlink("4242", root.join("self")).unwrap();
        assert!(is_ours(&root, 4242));
        assert!(
            !is_ours(&root, 17),
            "pid 17 here is 4242 in that /proc's namespace"
        );
        assert!(!is_ours(&fake_proc("no-self"), 17));
        // This machine's own /proc is ours.
        assert!(is_ours(Path::new("/proc"), std::process::id()));
    }

    #[test]
    fn this_process_reads_as_a_tree_of_one() {
        let pid = std::process::id() as i32;
        let start = std::time::Instant::now();
        let mut n = 0u64;
        while start.elapsed() < Duration::from_millis(30) {
            n = std::hint::black_box(n.wrapping_add(1));
        }
        let times = tree_times(Path::new("/proc"), pid, 100, true).unwrap();
        if let Some(runnable) = times.runnable {
            assert!(runnable >= times.cpu);
        }
        assert!(times.cpu > Duration::ZERO);
    }
}
