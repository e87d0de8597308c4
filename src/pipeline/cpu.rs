//! CPU time used, read from `/proc` (Linux; 0 elsewhere): by the whole process, for the live
//! bench's share of a core, and by one thread, for replay's account of what each stage costs.

/// CPU time this process has used, user and system.
pub fn cpu_seconds() -> f64 {
    ticks_in("/proc/self/stat")
}

/// CPU time the calling thread has used, user and system (in 10 ms ticks: good over seconds).
pub fn thread_cpu_seconds() -> f64 {
    ticks_in("/proc/thread-self/stat")
}

fn ticks_in(path: &str) -> f64 {
    let Ok(stat) = std::fs::read_to_string(path) else { return 0.0 };
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0.0 };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
    (ticks(11) + ticks(12)) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_thread_counts_its_own_time_and_the_process_all_of_it() {
        let (before, all_before) = (thread_cpu_seconds(), cpu_seconds());
        // Until it has used 0.3 s of its own, however busy the machine (other tests run
        // beside this one); a clock that never moved would stop it after 30 s.
        let spin = || {
            let started = std::time::Instant::now();
            let mut x = 0u64;
            while thread_cpu_seconds() < 0.3 && started.elapsed().as_secs_f64() < 30.0 {
                for _ in 0..100_000 {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            thread_cpu_seconds()
        };
        let other = std::thread::spawn(spin).join().unwrap();
        let mine = thread_cpu_seconds() - before;
        // This one waited meanwhile, using next to nothing.
        assert!(other >= 0.3, "the spinning thread used {other} s");
        assert!(mine < 0.1, "the waiting thread used {mine} s");
        assert!(cpu_seconds() - all_before >= 0.3);
    }
}
