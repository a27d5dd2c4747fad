
extension Responder {
    /// `time FORMAT` for a format with a `%`: what `date +FORMAT` prints with `TZ` set to
    /// the zone and `LC_ALL` to `en_US.UTF-8` or `zh_CN.UTF-8`, byte for byte (see
    /// `StrftimeFormat` and `StrftimeRenderer`), with `%Z` from the tz database.
    func strftime(_ format: String, now: Instant, zone: Zone, language: Language) throws(ProtocolError) -> String {
        try Self.strftime(format, now: now, zone: zone, language: language)
    }

    /// The same without a responder (compiled formats and zones are shared anyway).
    static func strftime(_ format: String, now: Instant, zone: Zone, language: Language,
                         zones: ZoneInfoStore = .shared) throws(ProtocolError) -> String {
        do throws(StrftimeError) {
            let compiled = try StrftimeFormat.cached(format)
            let seconds = now.secondsSince1970
            guard seconds.isFinite, abs(seconds) < Double(BrokenDownTime.maxUnixSeconds) else { throw .instantOutOfRange }
            let whole = seconds.rounded(.down)
            let unixSeconds = Int(clampingSeconds: whole)
            let nanoseconds = min(999_999_999, Int(clampingSeconds: (seconds - whole) * 1_000_000_000))
            let local = zone.info(store: zones).localTimeType(at: unixSeconds)
            var renderer = StrftimeRenderer(time: BrokenDownTime(unixSeconds: unixSeconds, nanoseconds: nanoseconds, local: local),
                                            locale: .of(language))
            try renderer.render(compiled.pieces)
            return String(decoding: renderer.output, as: UTF8.self)
        } catch {
            throw error.protocolError
        }
    }
}
