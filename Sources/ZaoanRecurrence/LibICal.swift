import CICal

/// The few things every use of libical needs, in one place.
///
/// Threads: libical keeps global state — `icalerrno`, the error states, its ring of
/// temporary strings — and so do the calendar modules (their zone caches). The service uses
/// it from two threads — the calendar reader and the loop (recurring rooms) — each call
/// inside `LibICalLock.run`, so one runs at a time; the tests run serialized.
/// Every libical object created here is freed by the code that made it (a `defer` beside
/// each `icalparser_new` and `icalcomponent_free`); libical's own zones are never made
/// (zones are zaoan's: `CalendarZone`).
package enum LibICal {
    /// Once per process: errors are never fatal (Debian builds libical so already; a build
    /// with ICAL_ERRORS_ARE_FATAL would abort on the first bad line of someone's file).
    private static let prepared: Void = {
        icalerror_set_errors_are_fatal(0)
    }()

    package static func prepare() {
        _ = prepared
        icalerror_clear_errno()
    }

    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}

extension LocalDateTime {
    /// The wall clock of a libical time, ignoring its zone; nil for the null time, an
    /// impossible date or a year outside `CalendarLimits.years`.
    package init?(_ time: icaltimetype) {
        guard icaltime_is_null_time(time) == 0 else { return nil }
        let isDate = time.is_date != 0
        self.init(year: Int(time.year), month: Int(time.month), day: Int(time.day),
                  hour: isDate ? 0 : Int(time.hour), minute: isDate ? 0 : Int(time.minute),
                  second: isDate ? 0 : Int(time.second))
    }
}
