import Foundation
import Testing
@testable import ZaoanCore
@testable import ZaoanTime

/// Fixed instants, zones and settings for the core's tests. Nothing here reads the wall
/// clock, the environment or the machine's zone, so every test gives the same answer anywhere.

/// An instant written as ISO 8601 with an offset ("2026-03-29T03:59:00Z", "...+08:00").
func instant(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Instant {
    let parser = ISO8601DateFormatter()
    parser.formatOptions = [.withInternetDateTime]
    let date = try #require(parser.date(from: text), "bad instant in test: \(text)", sourceLocation: sourceLocation)
    return Instant(secondsSince1970: date.timeIntervalSince1970)
}

/// The instant at which a wall clock in `zone` shows the given local time.
func localInstant(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0,
    in zone: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Instant {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: zone), "unknown zone in test: \(zone)", sourceLocation: sourceLocation)
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let date = try #require(calendar.date(from: components), sourceLocation: sourceLocation)
    return Instant(secondsSince1970: date.timeIntervalSince1970)
}

func timeZone(_ identifier: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Zone {
    try #require(Zone.named(identifier), "unknown zone in test: \(identifier)", sourceLocation: sourceLocation)
}

/// Settings as `zaoan serve` would resolve them, with the machine's zone pinned to Shanghai
/// and an empty environment (so the language is English unless given).
func makeSettings(
    language: String? = nil,
    city: String? = nil,
    timezone: String? = nil,
    cities: [String: String]? = nil,
    greetings: [String: String]? = nil,
    separator: String? = nil,
    formatterCacheSize: Int? = nil,
    environment: [String: String] = [:],
    systemZone: String = "Asia/Shanghai"
) throws -> Settings {
    var file = ConfigFile()
    file.language = language
    file.city = city
    file.timezone = timezone
    file.cities = cities
    file.greetings = greetings
    file.separator = separator
    file.formatterCacheSize = formatterCacheSize
    return try Settings.resolve(file, environment: environment, systemZone: try timeZone(systemZone))
}

/// Runs `body` and returns the `ProtocolError` it threw, recording an issue if it threw none.
func protocolError<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(ProtocolError) -> T
) -> ProtocolError? {
    do {
        let value = try body()
        Issue.record("expected a ProtocolError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Runs `body` and returns the `ConfigError` it threw, recording an issue if it threw none.
func configError<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(ConfigError) -> T
) -> ConfigError? {
    do {
        let value = try body()
        Issue.record("expected a ConfigError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
