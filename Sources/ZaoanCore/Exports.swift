/// Safe text and the bar encoders, which the clients share without the rest of the core.
@_exported import ZaoanText
/// The almanac (solar terms, lunar dates), which `Responder.almanac` exposes.
@_exported import ZaoanAlmanac
