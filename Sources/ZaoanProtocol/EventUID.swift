import ZaoanText

/// The UIDs `event add` gives the events it writes, and the only ones `event rm` takes:
/// 32 lowercase hex digits (128 random bits) and `@zaoan`, e.g.
/// `3f2a9c0e5b7d41a8c6e2f0b9d8a7c6e5@zaoan`. The file is the UID and `.ics` (as khal names
/// its files), so a UID checked here is a file name with no `/`, no `..`, no NUL and a
/// bounded length, whoever sent it; and since no other program makes UIDs of this shape,
/// it also marks the file as zaoan's (with the PRODID, `EventFile.productID`, checked
/// before a removal).
public enum EventUID {
    public static let suffix = "@zaoan"
    public static let randomDigits = 32
    /// The shape, for errors.
    public static let shape = "\(randomDigits) of 0-9 a-f, then \(suffix)"

    /// Whether `uid` has the shape `event add` makes.
    public static func isMade(_ uid: String) -> Bool {
        let bytes = Array(uid.utf8)
        guard bytes.count == randomDigits + suffix.utf8.count, bytes[randomDigits...].elementsEqual(suffix.utf8) else { return false }
        return bytes[..<randomDigits].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A new UID from `generator` (the kernel's in the service; a seeded one in tests).
    public static func make(using generator: inout some RandomNumberGenerator) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(randomDigits)
        for _ in 0..<randomDigits { text.append(Hex.digit(UInt8(generator.next() % 16), uppercase: false)) }
        return String(decoding: text, as: UTF8.self) + suffix
    }

    /// The file an event of `uid` is written to: only for a UID `isMade` accepts.
    public static func fileName(_ uid: String) -> String {
        precondition(isMade(uid), "a file name from a UID zaoan did not make")
        return uid + ".ics"
    }
}
