import Glibc

/// One caller of this module at a time (see `LibICal`): the service's calendar reader holds
/// it while it reads and expands, the loop while it expands a recurring room. A plain
/// pthread mutex: the module has no Foundation.
public enum LibICalLock {
    private nonisolated(unsafe) static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
