extension Array {
    /// In an array sorted by start: the first element starting at or after `now`, found by
    /// binary search.
    package func firstStarting(atOrAfter now: Int64, start: (Element) -> Int64) -> Element? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if start(self[middle]) < now { low = middle + 1 } else { high = middle }
        }
        return low < count ? self[low] : nil
    }
}
