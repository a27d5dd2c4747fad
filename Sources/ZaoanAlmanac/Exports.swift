/// `CivilDay`, the days the almanac answers for, is the time engine's.
@_exported import ZaoanTime
