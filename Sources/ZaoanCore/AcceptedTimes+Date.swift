import Foundation

extension AcceptedTimes.Window {
    public func contains(_ date: Date) -> Bool {
        contains(seconds: date.timeIntervalSince1970)
    }
}
