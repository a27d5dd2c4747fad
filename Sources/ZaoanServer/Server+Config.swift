import ZaoanCore

/// The config in force: reloading it (SIGHUP, `reload`), the calendars it names, and the
/// problems it had at start.
extension Server {
    /// Reads the settings' calendars now and follows their changes (inotify).
    func followCalendars(_ settings: Settings) throws(SystemError) {
        if calendars == nil {
            guard !settings.calendars.isEmpty else { return }
            calendars = try CalendarFeed(loop: loop, clock: clock.source) { [unowned self] events, names in
                self.responder.replaceCalendarEvents(events, calendars: names)
                self.roomsChanged()
            }
        }
        calendars?.configure(calendars: settings.calendars, zone: settings.zone.identifier, windowHours: settings.calendarWindowHours)
    }

    /// Puts the settings a reload read in force (`SettingsReloader` read them off the
    /// loop); a bad file is rejected and the settings in force are kept. Either way the
    /// reload is over for systemd (READY=1 after RELOADING=1), and the status line says
    /// whether the last one was refused.
    func applyReloaded(_ read: Result<Settings, ConfigError>) -> Reply {
        defer { notify(.ready, .status(statusLine)) }
        switch read {
        case .success(let read):
            refusedReload = nil
            let settings = followSystemZone(read)  // the machine's zone as the link names it now
            shared.outputLimits = settings.outputLimits
            table.slots = ConnectionTable.Slots(settings)
            dispatcher.adminGroupID = Dispatcher.groupID(named: settings.adminGroup)
            putInForce(settings)
            if !configProblems.isEmpty {
                configProblems = []
                statusChanged()
            }
            Log.info("configuration reloaded from \(options.config.path)")
            return .ok
        case .failure(let error):
            refusedReload = error
            Log.error("reload rejected, keeping the previous settings: \(error)", event: .configRejected, fields: journalFields(error))
            return .error(ProtocolError(.badConfig, "\(error); the previous settings stay in force"))
        }
    }

    /// A config problem's place as journal fields (CONFIG_FILE, CONFIG_KEY, CONFIG_LINE,
    /// CONFIG_COLUMN), the same for a problem at start and a refused reload.
    func journalFields(_ problem: ConfigError) -> [String: String] {
        var fields = ["CONFIG_FILE": problem.file ?? options.config.path]
        if let key = problem.key { fields["CONFIG_KEY"] = RequestParser.shorten(key) }
        if let position = problem.position {
            fields["CONFIG_LINE"] = "\(position.line)"
            fields["CONFIG_COLUMN"] = "\(position.column)"
        }
        return fields
    }

    /// Puts new settings in force everywhere they are read: the answers, the rooms' wall
    /// clock (a new zone moves it), the almanac, the event stream, the calendars (their
    /// floating times), and every watch re-rendered at once, not on the next tick (a new
    /// language, city, zone or template).
    func putInForce(_ settings: Settings) {
        responder.apply(settings)
        rooms.refresh()
        almanac.prepareIfUsed(by: responder, now: clock.wall)
        events.scheduleChanged()
        do {
            try followCalendars(settings)
        } catch {
            Log.error("cannot watch the calendars: \(error); they are read again at the next reload")
        }
        watches.refresh(periodsChanged: true)
    }

    /// One warning per problem the config had at start, each with its place in structured
    /// fields (journal MESSAGE_ID rejected-config, as for a rejected reload).
    func logConfigProblems() {
        for problem in configProblems {
            let serving = problem.fallback == .allDefaults ? "serving with the built-in defaults" : "serving with the rest"
            Log.warning("\(problem.report); \(serving) (zaoan check-config checks the file)", event: .configRejected, fields: journalFields(problem))
        }
    }
}
