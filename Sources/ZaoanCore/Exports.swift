/// Safe text and the bar encoders, which the clients share without the rest of the core.
@_exported import ZaoanText
/// Requests, their parser and errors: Foundation-free, shared with the small client.
@_exported import ZaoanProtocol
/// The almanac (solar terms, lunar dates), which `Responder.almanac` exposes.
@_exported import ZaoanAlmanac
/// The time engine (civil days, zones, wall clocks, strftime, accepted times), which the
/// service and the tests reach through the core.
@_exported import ZaoanTime
