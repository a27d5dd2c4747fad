
extension AcceptedTimes.Window {
    public func contains(_ date: Instant) -> Bool {
        contains(seconds: date.secondsSince1970)
    }
}
