import Glibc

/// An inotify instance, owned: non-blocking and close-on-exec, closed when the last
/// reference goes. A class, so the one instance can be shared by what adds watches and
/// what reads the events (the calendars' `CalendarWatches` and `CalendarFeed`); the loop
/// registers `rawValue` and its owner unregisters it before the end.
///
/// Watches are added by path with a mask of `IN_*` bits and come back as watch numbers;
/// events are read until the descriptor is drained, each with its watch, bits and name.
public final class Inotify {
    private let descriptor: Descriptor
    /// For the loop's registration only.
    public var rawValue: Int32 { descriptor.rawValue }

    /// One event: the watch it came from, its `IN_*` bits and the name in a watched folder
    /// (empty for an event of the watched path itself, or `IN_Q_OVERFLOW`).
    public struct Event: Sendable, Equatable {
        public let watch: Int32
        public let mask: UInt32
        public let name: String
    }

    /// - Parameter purpose: what the watches are for, for the error.
    public init(_ purpose: @autoclosure () -> String) throws(SystemError) {
        descriptor = Descriptor(taking: try syscall("\(purpose()) (inotify_init1)") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    /// `inotify_add_watch(2)`: the watch number, the same one for a path already watched
    /// (the mask is then replaced).
    public func watch(_ path: String, mask: UInt32) throws(SystemError) -> Int32 {
        try syscall("watching \(path) (inotify_add_watch)") { inotify_add_watch(descriptor.rawValue, path, mask) }
    }

    /// `inotify_rm_watch(2)`; a watch the kernel already dropped (its path removed) is no error.
    public func remove(_ watch: Int32) {
        _ = inotify_rm_watch(descriptor.rawValue, watch)
    }

    /// Reads every event waiting, in order, and hands each to `body`; returns when none is
    /// left (EAGAIN). With `body` left out the events are only drained.
    public func drain(_ body: (Event) -> Void = { _ in }) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count: Int
            do throws(SystemError) {
                guard case .value(let read) = try nonBlockingSyscall("reading inotify events", {
                    buffer.withUnsafeMutableBytes { Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }
                }) else { return }
                count = read
            } catch {
                return  // nothing a reader could do: the next event wakes it again
            }
            if count <= 0 { return }
            Self.events(in: buffer[0..<count], body)
        }
    }

    /// The events of one read: `struct inotify_event` (16 bytes) then `len` bytes of name,
    /// padded with NULs.
    static func events(in bytes: ArraySlice<UInt8>, _ body: (Event) -> Void) {
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let (watch, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = offset - bytes.startIndex
                return (raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self)))
            }
            let nameStart = offset + header
            let nameEnd = min(nameStart + length, bytes.endIndex)
            let name = bytes[nameStart..<nameEnd].prefix { $0 != 0 }
            body(Event(watch: watch, mask: mask, name: String(decoding: name, as: UTF8.self)))
            offset = nameEnd
        }
    }
}
