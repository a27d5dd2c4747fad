/// The recurrence engine (series, rules, zones, windows, limits), which the reader's
/// answers are made of.
@_exported import ZaoanRecurrence
