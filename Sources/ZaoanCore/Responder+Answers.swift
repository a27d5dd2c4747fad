
/// What an answer function of the answer table (`Responder.answer(_:_:counters:)`) is
/// asked with, and the answers too short for a file of their own.
extension Responder {
    /// What an answer function is asked with.
    struct Asked {
        /// The request of its own, as its row's reader read it (`ReadArguments`).
        let request: Request
        /// The place `@ZONE` named (`time HH:mm @Asia/Tokyo`); nil for the configured one.
        let place: Place?
        let now: Instant
        /// The countdown templates to use: `format=NAME`'s set, else the `default` one, else
        /// nil (today's text).
        var formats: CountdownFormatSet? = nil

        /// The request's text (`Request.text`): a city, a pattern, a room ID.
        var text: String? { request.text }
        /// The request's number (`Request.number`): the ticker's SKIP, schedule's HOURS.
        var number: Int { request.number }
    }

    // MARK: - The answers too short for a file of their own

    func greetingAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        try greetingAnswer(city: asked.text, now: asked.now)
    }

    func timeAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        Answer(try time(pattern: asked.text, now: asked.now, zone: asked.place?.zone), state: "time")
    }

    func chineseTimeAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        Answer(try chineseTime(pattern: asked.text, now: asked.now, zone: asked.place?.zone ?? settings.zone), state: "time")
    }

    /// `ago TIME`: 5分钟前 / 3 hours ago.
    func agoAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        let now = asked.now
        let date = try TimeExpression.parse(asked.text ?? "", now: now, zone: settings.zone, lean: .past)
        return Answer(RelativeTimeText.describe(date.unixSeconds,
                                                from: now.unixSeconds, language: settings.language))
    }

    /// `duration SECONDS`: 02:05, 1:02:05.
    func durationAnswer(_ asked: Asked) throws(ProtocolError) -> Answer {
        Answer(DurationText.format(seconds: try DurationText.parse(asked.text ?? "")))
    }
}
