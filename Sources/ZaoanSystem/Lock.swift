#if canImport(Glibc)
import Glibc
#endif

/// A mutex for what several threads share: the process-wide caches of the time and
/// recurrence engines, libical's global state, the service's formatter cache and background
/// worker. A pthread mutex, as Foundation's `NSLock` is, without Foundation; not
/// Synchronization's `Mutex`, which ThreadSanitizer does not see on Linux (a four-thread
/// counter under it was reported as a race; under a pthread mutex, not).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
