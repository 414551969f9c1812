//! The memory one job may take on the server (`job_memory_mb`).
//!
//! A job (a hint, a solve, a new puzzle, a logic path) runs on its
//! session's worker thread while a watcher reads the process's resident
//! memory every [`EVERY`]; once it has grown by more than the cap since
//! the job began, the job's cancel flag is raised (every search honours it
//! within milliseconds) and the job ends as over its memory
//! ([`Watched::over`], the cap it passed). The figure is the whole process's, so what other
//! sessions' jobs allocate at the same time counts too: the cap errs
//! toward stopping a job early, never toward letting the server grow past
//! the cap with one job. It also sees what no Rust allocator would, the
//! SAT solver's own C++ memory, which is where a big grid's memory goes
//! (a 225×225 grew to 820 MB in 25 s). Where the process's memory cannot
//! be read (no `/proc`), jobs run without the watcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the watcher reads the process's memory.
pub const EVERY: Duration = Duration::from_millis(10);

/// The process's resident memory in bytes (`VmRSS` of
/// `/proc/self/status`), or `None` where it cannot be read.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// What [`watched`] gives back: the job's own result, and whether the
/// watcher stopped it for its memory.
#[derive(Debug)]
pub struct Watched<T> {
    /// The job's result (after a stop for memory, whatever a cancelled
    /// job gives).
    pub result: T,
    /// The cap (in bytes) the process grew past while the job ran, and
    /// for which the job was cancelled.
    pub over: Option<u64>,
}

/// Runs `job` on this thread, watched: with a `cap` in bytes, once the
/// process's resident memory has grown by more than `cap` since the job
/// began, `cancel` (the flag the job's limits read) is raised. Without a
/// cap, or where the memory cannot be read, the job simply runs.
pub fn watched<T>(
    cap: Option<u64>,
    cancel: &Arc<AtomicBool>,
    job: impl FnOnce() -> T,
) -> Watched<T> {
    let (Some(cap), Some(start)) = (cap, resident_bytes()) else {
        return Watched {
            result: job(),
            over: None,
        };
    };
    let done = AtomicBool::new(false);
    let over = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if resident_bytes().is_some_and(|now| now.saturating_sub(start) > cap) {
                    over.store(true, Ordering::Relaxed);
                    cancel.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::park_timeout(EVERY);
            }
        });
        let result = job();
        done.store(true, Ordering::Relaxed);
        watcher.thread().unpark();
        result
    });
    Watched {
        result,
        over: over.load(Ordering::Relaxed).then_some(cap),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Allocates `mib` MiB and writes every page, so it is resident.
    fn resident(mib: usize) -> Vec<u8> {
        let mut v = vec![0u8; mib << 20];
        for i in (0..v.len()).step_by(4096) {
            v[i] = 1;
        }
        // Kept from the optimizer, which would drop writes never read.
        std::hint::black_box(v)
    }

    #[test]
    fn the_process_memory_reads_and_grows_with_what_is_written() {
        let Some(before) = resident_bytes() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "no /proc/self/status under CI"
            );
            println!("no /proc/self/status here: skipped");
            return;
        };
        assert!(before > 0);
        // The allocator may hand back pages other tests (threads of this
        // process) have freed and that are still resident, and those tests
        // may free more meanwhile: what is written is held 64 MiB at a
        // time until the process has grown by 48 MiB, up to 1 GiB.
        let mut held = Vec::new();
        let mut after = before;
        while after < before + (48 << 20) && held.len() < 16 {
            held.push(resident(64));
            after = resident_bytes().unwrap();
        }
        assert!(
            after >= before + (48 << 20),
            "{before} -> {after} with {} MiB written",
            held.len() * 64
        );
        drop(held);
    }

    /// A job that keeps allocating is cancelled once it is over the cap,
    /// and says so; one that stays under it runs to its end untouched.
    #[test]
    fn a_job_over_its_memory_is_cancelled_and_one_under_it_is_not() {
        if resident_bytes().is_none() {
            assert!(std::env::var_os("CI").is_none());
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let began = Instant::now();
        let w = watched(Some(32 << 20), &cancel, || {
            let mut held = Vec::new();
            // Up to 512 MiB in 8 MiB steps, or until cancelled; the
            // limit on time only guards the test against a hang.
            while !flag.load(Ordering::Relaxed) && held.len() < 64 {
                held.push(resident(8));
                std::thread::sleep(Duration::from_millis(5));
            }
            held.len()
        });
        assert_eq!(w.over, Some(32 << 20), "never stopped: {} steps", w.result);
        assert!(cancel.load(Ordering::Relaxed));
        assert!(w.result < 64, "ran to the end: {} steps", w.result);
        assert!(began.elapsed() < Duration::from_secs(30));

        let cancel = Arc::new(AtomicBool::new(false));
        let w = watched(Some(4 << 30), &cancel, || resident(8).len());
        assert_eq!(w.over, None);
        assert_eq!(w.result, 8 << 20);
        assert!(!cancel.load(Ordering::Relaxed));

        let w = watched(None, &cancel, || 7);
        assert_eq!(w.over, None);
        assert_eq!(w.result, 7);
    }
}
