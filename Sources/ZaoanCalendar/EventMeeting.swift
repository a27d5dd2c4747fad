import ZaoanRecurrence
import CICal

/// A VEVENT's join link (`MeetingLink`): the texts calendars put it in, read out of libical
/// as the file has them (not yet made safe or cut: `WebLink` bounds its own scan).
enum EventMeeting {
    /// CONFERENCE lines and X- lines looked at per event.
    static let propertiesLooked = MeetingLink.candidatesLooked

    static func search(_ component: OpaquePointer) -> MeetingLink.Search {
        var candidates: [MeetingLink.Candidate] = []
        var property = icalcomponent_get_first_property(component, ICAL_CONFERENCE_PROPERTY)
        var looked = 0
        while let current = property, looked < propertiesLooked {
            looked += 1
            if let value = LibICal.string(icalproperty_get_conference(current)) {
                candidates.append(.init(.conference(features: features(of: current)), value))
            }
            property = icalcomponent_get_next_property(component, ICAL_CONFERENCE_PROPERTY)
        }
        property = icalcomponent_get_first_property(component, ICAL_X_PROPERTY)
        looked = 0
        while let current = property, looked < 4 * propertiesLooked {
            looked += 1
            if let name = LibICal.string(icalproperty_get_x_name(current))?.uppercased(),
               let place = MeetingLink.Place.xProperties.first(where: { $0.name == name })?.place,
               let value = LibICal.string(icalproperty_get_x(current)) {
                candidates.append(.init(place, value))
            }
            property = icalcomponent_get_next_property(component, ICAL_X_PROPERTY)
        }
        if let location = LibICal.string(icalcomponent_get_location(component)) { candidates.append(.init(.location, location)) }
        if let url = icalcomponent_get_first_property(component, ICAL_URL_PROPERTY).flatMap({ LibICal.string(icalproperty_get_url($0)) }) {
            candidates.append(.init(.url, url))
        }
        if let description = LibICal.string(icalcomponent_get_description(component)) { candidates.append(.init(.description, description)) }
        return MeetingLink.find(in: candidates)
    }

    /// A CONFERENCE's FEATURE values, each parameter as libical writes it (`FEATURE="AUDIO,VIDEO"`).
    private static func features(of property: OpaquePointer) -> [String] {
        var values: [String] = []
        var parameter = icalproperty_get_first_parameter(property, ICAL_FEATURE_PARAMETER)
        while let current = parameter, values.count < 8 {
            if let text = LibICal.string(icalparameter_as_ical_string(current)) {
                values.append(String(text.drop { $0 != "=" }.dropFirst()))
            }
            parameter = icalproperty_get_next_parameter(property, ICAL_FEATURE_PARAMETER)
        }
        return values
    }
}
