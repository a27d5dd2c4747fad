/// Zone names (`z`, `v`, `VV`–`VVVV`) for one instant, by ICU's TimeZoneFormat and
/// TimeZoneGenericNames rules over CLDR 47's names (LDMLZoneWords): a zone's own name first,
/// then its metazone's, then the generic location format (`{0}时间` around the country of a
/// one-zone region or the exemplar city), and last the localized GMT format. A zone CLDR does
/// not know, and a fixed-offset zone (no identifier), has only the last.
struct ZoneNaming {
    let zone: ZoneInfo
    let identifier: String?
    let instant: Int
    let offset: Int
    let words: LDMLZoneWords
    let data: LDMLZoneData
    /// The language's localized GMT format.
    let gmt: LDMLWords

    private var canonical: String? { data.canonical(identifier) }
    private var moment: Int { ZoneDaylight.clamped(instant) }

    private func gmtFormat(long: Bool) -> String {
        ZoneOffset.localizedGMT(offset, long: long, gmt)
    }

    /// `z`–`zzz` (short) and `zzzz` (long): the standard or daylight name in force.
    func specific(long: Bool) -> String {
        guard let canonical else { return gmtFormat(long: long) }
        let daylight = ZoneDaylight.isDaylight(zone, at: moment)
        let kind: LDMLZoneWords.Kind = long ? (daylight ? .longDaylight : .longStandard) : (daylight ? .shortDaylight : .shortStandard)
        return name(canonical, kind) ?? gmtFormat(long: long)
    }

    /// `v` (short) and `vvvv` (long): the generic name, else the generic location format.
    func generic(long: Bool) -> String {
        guard let canonical else { return gmtFormat(long: long) }
        return genericNonLocation(canonical, long: long) ?? genericLocation(canonical) ?? gmtFormat(long: long)
    }

    /// `VV`: the zone's id as given (ICU's getID), or ICU's id for a fixed offset.
    var identifierText: String {
        if let identifier { return identifier }
        guard offset != 0 else { return "GMT" }
        let magnitude = offset.magnitude
        let (hours, minutes, seconds) = (Int(magnitude / 3_600), Int(magnitude % 3_600 / 60), Int(magnitude % 60))
        var text = "GMT" + (offset < 0 ? "-" : "+") + LDMLRenderer.padded(hours, 2) + ":" + LDMLRenderer.padded(minutes, 2)
        if seconds != 0 { text += ":" + LDMLRenderer.padded(seconds, 2) }
        return text
    }

    /// `VVV`: the exemplar city, else the language's unknown city.
    var exemplarCity: String {
        canonical.flatMap(words.city) ?? words.unknownCity
    }

    /// `VVVV`: the generic location format, else the long localized GMT format.
    var genericLocationOrGMT: String {
        canonical.flatMap(genericLocation) ?? gmtFormat(long: true)
    }

    /// The zone's own name of this kind, else its metazone's at this instant.
    private func name(_ canonical: String, _ kind: LDMLZoneWords.Kind) -> String? {
        if let own = words.zoneName(canonical, kind) { return own }
        return data.metazone(of: canonical, at: moment).flatMap { words.metazoneName($0, kind) }
    }

    /// ICU's formatGenericNonLocationName: where the zone keeps standard time for 184 days
    /// either side, the standard name (unless the same as the generic one); else the
    /// metazone's generic name, with the zone's place after it (`{1} ({0})`, ICU's partial
    /// location) where its offset differs from the metazone's reference zone's. CLDR's
    /// reference zones are not in Babel, so with CLDR's data here there is none, and
    /// LDMLKnownDifferences lists where ICU's partial locations show.
    private func genericNonLocation(_ canonical: String, long: Bool) -> String? {
        let genericKind: LDMLZoneWords.Kind = long ? .longGeneric : .shortGeneric
        if let own = words.zoneName(canonical, genericKind) { return own }
        guard let metazone = data.metazone(of: canonical, at: moment) else { return nil }
        let generic = words.metazoneName(metazone, genericKind)
        if ZoneDaylight.keepsStandardTime(zone, around: moment),
           let standard = name(canonical, long ? .longStandard : .shortStandard),
           standard.lowercased() != (generic ?? "").lowercased() {
            return standard
        }
        guard let generic, let reference = data.referenceZones[metazone + "/" + words.region] ?? data.referenceZones[metazone],
              reference != canonical, let referenceZone = try? ZoneInfoStore.shared.zoneInfo(named: reference) else {
            // try?: a reference zone the machine lacks leaves the name as the metazone's, as
            // ICU does when it cannot make the zone.
            return generic
        }
        // ICU compares the reference zone at the same wall-clock time, taking the later of a
        // repeated time and the earlier offset in a skipped one.
        let referenceInstant: Int
        switch referenceZone.instants(atLocal: moment + offset) {
        case .unique(let instant): referenceInstant = instant
        case .repeated(let instants): referenceInstant = instants.last ?? moment
        case .skipped(_, let transition): referenceInstant = transition - 1
        }
        guard WallClock.offset(referenceZone, at: referenceInstant) != offset
                || ZoneDaylight.isDaylight(referenceZone, at: referenceInstant) != ZoneDaylight.isDaylight(zone, at: moment) else {
            return generic
        }
        return partialLocation(canonical, metazone: metazone, generic)
    }

    /// `{1} ({0})` (the language's fallbackFormat) with the region's name where the zone is
    /// its region's reference zone for the metazone, else the exemplar city.
    private func partialLocation(_ canonical: String, metazone: String, _ generic: String) -> String {
        let region = data.regions[canonical] ?? "001"
        let place = (data.referenceZones[metazone + "/" + region] ?? data.referenceZones[metazone]) == canonical
            ? words.regionNames[region] ?? canonical : words.city(canonical) ?? canonical
        return words.fallbackFormat.replacingPlaceholders(place, generic)
    }

    /// ICU's getGenericLocationName: `{0}时间` around the region's name where the region has
    /// one zone, else around the exemplar city; none for a zone without a region (Etc/).
    private func genericLocation(_ canonical: String) -> String? {
        guard let region = data.regions[canonical], region != "001", region != "ZZ" else { return nil }
        if data.singleZoneRegions.contains(region), let name = words.regionNames[region] {
            return words.inRegionFormat(name)
        }
        return words.city(canonical).map(words.inRegionFormat)
    }
}

/// Daylight time as ICU sees it. ICU's zone data is the tz database's "rearguard" form, in
/// which the daylight saving is never negative; Debian's TZif files are the main form, where
/// Ireland's winter GMT (and Morocco's Ramadan +00, Namibia's winter of 1994–2017) is marked
/// daylight with a negative saving. So a period counts as daylight when the file says so and
/// no neighbouring standard period is ahead of it, or when the file says standard but the
/// "daylight" periods either side are behind it.
enum ZoneDaylight {
    /// How far ICU looks for daylight time before calling a zone's generic name its standard
    /// one (kDstCheckRange in tzgnames.cpp): 184 days.
    static let checkRange = 184 * 86_400
    /// How far the periods next to an instant are looked for: eleven years (Ireland's
    /// standard +01 of 1968–1971 is told from daylight time by the summer before it).
    static let neighbourRange = 4_000 * 86_400

    /// The zone lookups take instants within ±2^53 s; far from it, the nearest end is used.
    static func clamped(_ instant: Int) -> Int {
        max(-BrokenDownTime.maxUnixSeconds + 2 * neighbourRange, min(BrokenDownTime.maxUnixSeconds - 2 * neighbourRange, instant))
    }

    static func isDaylight(_ zone: ZoneInfo, at instant: Int) -> Bool {
        let here = zone.localTimeType(at: instant)
        let changes = zone.offsetChanges(in: (instant - neighbourRange)...(instant + neighbourRange))
        var neighbours: [LocalTimeType] = []
        if let before = changes.last(where: { $0 <= instant }) { neighbours.append(zone.localTimeType(at: before - 1)) }
        if let after = changes.first(where: { $0 > instant }) { neighbours.append(zone.localTimeType(at: after)) }
        if here.isDST { return !neighbours.contains { !$0.isDST && $0.utcOffset > here.utcOffset } }
        // Both sides: Ireland's +01 of 1968–1971 (standard, neighbouring +01 summer time on
        // one side) is not daylight; its summers since 1971 (between two GMTs) are.
        return !neighbours.isEmpty && neighbours.allSatisfy { $0.isDST && $0.utcOffset < here.utcOffset }
    }

    /// Whether the zone is in standard time at `instant`, came out of daylight time no less
    /// than 184 days before (by its last change) and goes into it no sooner than 184 days
    /// after (by its next).
    static func keepsStandardTime(_ zone: ZoneInfo, around instant: Int) -> Bool {
        guard !isDaylight(zone, at: instant) else { return false }
        let changes = zone.offsetChanges(in: (instant - checkRange)...(instant + checkRange))
        if let before = changes.last(where: { $0 <= instant }), instant - before < checkRange,
           isDaylight(zone, at: before - 1) {
            return false
        }
        if let after = changes.first(where: { $0 > instant }), after - instant < checkRange, isDaylight(zone, at: after) {
            return false
        }
        return true
    }
}

extension ZoneInfo {
    /// The instants in `window` at which the offset or the daylight flag changes.
    func offsetChanges(in window: ClosedRange<Int>) -> [Int] {
        changePoints(in: window).filter { point in
            let (before, after) = (localTimeType(at: point - 1), localTimeType(at: point))
            return before.utcOffset != after.utcOffset || before.isDST != after.isDST
        }
    }
}
