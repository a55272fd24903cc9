//! How much memory this process may still take: the machine's available memory and, where
//! an address-space limit is set (`ulimit -v`), what is left under it. Work that knows its
//! size up front (a solve, an answer table) checks here before allocating, so that it is
//! refused in milliseconds with how much it needs rather than failing part way.

/// Bytes this process can still allocate, as far as the system says (None when it does
/// not say): the smaller of the machine's available memory and the room left under the
/// address-space limit.
pub fn available() -> Option<u64> {
    match (machine_available(), address_space_room()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The memory the machine has available, from `/proc/meminfo` (None elsewhere).
fn machine_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// The room left under this process's address-space limit (None when unlimited or not
/// known): the limit less the address space already mapped.
fn address_space_room() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: a plain system call filling a struct we own.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
            || limit.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let used = kib_field(&status, "VmSize:").unwrap_or(0);
        #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every platform
        Some((limit.rlim_cur as u64).saturating_sub(used))
    }
    #[cfg(not(unix))]
    None
}

/// The value in bytes of a `Name:  123 kB` line.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kib_field_is_read_in_bytes() {
        let text = "MemTotal:  100 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(kib_field(text, "MemAvailable:"), Some(2 << 20));
        assert_eq!(kib_field(text, "VmSize:"), None);
    }

    #[test]
    fn this_process_has_some_memory_left() {
        assert!(available().is_none_or(|b| b > 0));
    }
}
