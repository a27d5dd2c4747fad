import Glibc
import ZaoanSystem

/// epoll for the generator. Swift's Glibc module leaves out <sys/epoll.h>, and the benchmark
/// takes no C target, so the three functions are looked up in libc with dlsym and called
/// through C function pointers. poll(2) would do, but costs O(connections) per call: with
/// 64 connections and a server that answers one at a time (the bare loop, zaoan), it made
/// the generator the bottleneck.
struct Epoll {
    private typealias Create1 = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    // struct epoll_event is packed on x86_64 (4 + 8 bytes), naturally aligned elsewhere.
    #if arch(x86_64)
    static let eventSize = 12
    static let dataOffset = 4
    #else
    static let eventSize = 16
    static let dataOffset = 8
    #endif
    static let readable: UInt32 = 0x001  // EPOLLIN
    private static let add: Int32 = 1  // EPOLL_CTL_ADD
    private static let closeOnExec: Int32 = 0o2_000_000  // EPOLL_CLOEXEC == O_CLOEXEC

    private let control: Control
    private let wait: Wait
    let fd: Int32
    private let events: UnsafeMutableRawPointer
    let capacity: Int

    /// nil when libc does not have epoll (then the caller falls back to poll).
    init?(capacity: Int) {
        guard let libc = dlopen(nil, RTLD_NOW),
              let create1 = dlsym(libc, "epoll_create1"),
              let control = dlsym(libc, "epoll_ctl"),
              let wait = dlsym(libc, "epoll_wait") else { return nil }
        self.control = unsafeBitCast(control, to: Control.self)
        self.wait = unsafeBitCast(wait, to: Wait.self)
        fd = unsafeBitCast(create1, to: Create1.self)(Self.closeOnExec)
        guard fd >= 0 else { return nil }
        self.capacity = capacity
        events = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.eventSize, alignment: 8)
    }

    func close() {
        events.deallocate()
        _ = Glibc.close(fd)
    }

    /// Watches `descriptor` for input; `token` comes back from `wait`.
    func addReadable(_ descriptor: Int32, token: UInt64) -> Bool {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        return event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: Self.readable, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            return control(fd, Self.add, descriptor, raw.baseAddress) == 0
        }
    }

    /// Waits up to `timeout` ms; calls `body` with each ready token. Returns false on error.
    @inline(__always)
    func wait(timeout: Int32, _ body: (UInt64) -> Bool) -> Bool {
        guard let count = try? syscall("epoll_wait", { wait(fd, events, Int32(capacity), timeout) }) else { return false }  // the caller reports it
        for index in 0..<Int(count) {
            let token = events.loadUnaligned(fromByteOffset: index * Self.eventSize + Self.dataOffset, as: UInt64.self)
            guard body(token) else { return false }
        }
        return true
    }
}
