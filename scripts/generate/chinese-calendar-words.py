#!/usr/bin/python3
"""Writes Sources/ZaoanTime/LDMLChineseWords+CLDR.swift: what LDML patterns in the Chinese
calendar take from CLDR for each language zaoan speaks, read from CLDR 41's own XML as
Debian's `unicode-cldr-core` package (41-0.1) installs it (/usr/share/unicode/cldr/common,
Unicode licence): of `<calendar type="chinese">`, the months' names (format and stand-alone;
abbreviated, wide, narrow), the leap-month patterns (`monthPatterns`: format, stand-alone and
numeric), the cyclic years' names (`cyclicNameSet type="years"`, format abbreviated: the only
width ICU formats `U` with); and from common/rbnf/zh.xml the day numbers of the `hanidays`
numbering system (supplemental/numberingSystems.xml: zh's %spellout-numbering-days), 0–30.

Babel (which the other CLDR generators read, CLDR 47) carries only the Gregorian calendar, so
this one reads CLDR itself, in the newest release reachable here; the differences against the
CLDR 46 of the toolchain's ICU 76 are listed by name in ChineseCalendarPatternTests.

CLDR's inheritance is resolved here, leaf by leaf: a locale's own value (drafts "unconfirmed"
and "provisional" left out, as ICU's build leaves them), else its parent's (parentLocales,
else the tag cut at its last part), else root's; an alias in root sends the lookup to another
path, from the locale itself again.

Usage: scripts/generate/chinese-calendar-words.py [CLDR-common-folder] > Sources/ZaoanTime/LDMLChineseWords+CLDR.swift
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

COMMON = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode/cldr/common"
CLDR = "41"
DTD_VERSION = re.search(r'cldrVersion CDATA #FIXED "([^"]+)"', open(os.path.join(COMMON, "dtd", "ldml.dtd")).read())
assert DTD_VERSION and DTD_VERSION.group(1) == CLDR, f"expected CLDR {CLDR} in {COMMON} (Debian's unicode-cldr-core 41-0.1)"

# Swift case and CLDR locale: the eight languages in their regions, as
# scripts/generate/babel_cldr.py's LANGUAGES has them.
LANGUAGES = [("zh", "zh_Hans_CN"), ("zhHant", "zh_Hant_TW"), ("en", "en_US"), ("ja", "ja_JP"), ("ko", "ko_KR"),
             ("de", "de_DE"), ("fr", "fr_FR"), ("es", "es_ES")]
# The languages whose service locale asks for `numbers=hanidays` (ZaoanCore's
# ChineseCalendar.localeIdentifier), as CLDR's own zh patterns of the calendar do (`d=hanidays`).
HANIDAYS = {"zh", "zhHant"}
EXCLUDED_DRAFTS = {"unconfirmed", "provisional"}
# Where a later CLDR than the 41 Debian carries says otherwise, and zaoan follows it: zh's 11th
# month is 冬月 (narrow 冬) in CLDR 46 (ICU 76's: ChineseCalendarPatternTests compares with
# it), as the almanacs and `{lunar}` (LunarDate.monthNames) name it; CLDR 41 has 十一月.
# Swift case, month, (abbreviated and wide, narrow).
LATER_CLDR_MONTHS = {("zh", 11): ("冬月", "冬")}

PARENTS = {}
for node in ET.parse(os.path.join(COMMON, "supplemental", "supplementalData.xml")).iter("parentLocale"):
    for child in node.get("locales").split():
        PARENTS[child] = node.get("parent")


def chain(tag):
    """The locale and its ancestors that have a file, root last."""
    tags = []
    while tag != "root":
        if os.path.exists(os.path.join(COMMON, "main", tag + ".xml")):
            tags.append(tag)
        tag = PARENTS.get(tag) or (tag.rsplit("_", 1)[0] if "_" in tag else "root")
    return [calendar(t) for t in tags + ["root"]]


def calendar(tag):
    root = ET.parse(os.path.join(COMMON, "main", tag + ".xml")).getroot()
    return root.find("./dates/calendars/calendar[@type='chinese']")


def child(element, name, kind):
    if element is None:
        return None
    for node in element.findall(name):
        if node.get("type") == kind and node.get("draft") not in EXCLUDED_DRAFTS and node.get("yeartype") is None:
            return node
    return None


def follow(path, alias):
    """The path an alias inside the element at `path` points to."""
    path = list(path)
    for step in alias.get("path").split("/"):
        if step == "..":
            path.pop()
        else:
            match = re.fullmatch(r"(\w+)\[@type='([^']+)'\]", step)
            assert match, step
            path.append((match.group(1), match.group(2)))
    return path


def lookup(locales, path, leaf):
    """The text of `leaf` (name, type) under `path` [(name, type), ...] in a locale chain."""
    for index, element in enumerate(locales):
        is_root = index == len(locales) - 1
        for depth, (name, kind) in enumerate(path):
            if is_root:
                alias = element.find("alias") if element is not None else None
                if alias is not None:
                    return lookup(locales, follow(path[:depth], alias) + path[depth:], leaf)
            element = child(element, name, kind)
        if is_root and element is not None and element.find("alias") is not None:
            return lookup(locales, follow(path, element.find("alias")), leaf)
        found = child(element, *leaf)
        if found is not None:
            return found.text
    raise KeyError(f"{path} {leaf}")


def rbnf(rulesets, name, number):
    """`number` (0 or more) through an RBNF rule set, for the few forms zh's day rules use."""
    rules = [(int(value), text) for value, text in rulesets[name] if value.isdigit()]
    base, text = max((rule for rule in rules if rule[0] <= number), key=lambda rule: rule[0])
    divisor = 10 ** (len(str(base)) - 1) if base > 0 else 1
    text = text.rstrip(";")
    if number % divisor == 0:
        text = re.sub(r"\[.*?\]", "", text)
    text = text.replace("[", "").replace("]", "")

    def substitute(match):
        mark, target = match.group(1), match.group(2) or name
        value = {"=": number, "→": number % divisor, "←": number // divisor}[mark]
        if target.startswith("#"):
            return str(value)
        return rbnf(rulesets, target.lstrip("%"), value)
    return re.sub(r"([=→←])(%*[\w-]*|#[#,0]*)\1", substitute, text)


def hanidays():
    system = ET.parse(os.path.join(COMMON, "supplemental", "numberingSystems.xml")).getroot()
    rules = system.find("./numberingSystems/numberingSystem[@id='hanidays']").get("rules")
    language, _, ruleset = rules.split("/")
    document = ET.parse(os.path.join(COMMON, "rbnf", language + ".xml")).getroot()
    rulesets = {node.get("type"): [(rule.get("value"), rule.text) for rule in node.findall("rbnfrule")]
                for node in document.iter("ruleset")}
    return [rbnf(rulesets, ruleset.lstrip("%"), day) for day in range(0, 31)]


def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def strings(items):
    return "[" + ", ".join(quoted(i) for i in items) + "]"


def months(case, locales, context):
    def row(width):
        names = [lookup(locales, [("months", None), ("monthContext", context), ("monthWidth", width)], ("month", str(m)))
                 for m in range(1, 13)]
        for (language, month), (name, narrow) in LATER_CLDR_MONTHS.items():
            if language == case:
                names[month - 1] = narrow if width == "narrow" else name
        return names
    return (f"LDMLWords.Names(abbreviated: {strings(row('abbreviated'))}, wide: {strings(row('wide'))}, "
            f"narrow: {strings(row('narrow'))})")


def leap(locales, context, width):
    return quoted(lookup(locales, [("monthPatterns", None), ("monthPatternContext", context),
                                   ("monthPatternWidth", width)], ("monthPattern", "leap")))


def patterns(locales, context):
    return (f"LDMLChineseWords.LeapPatterns(abbreviated: {leap(locales, context, 'abbreviated')}, "
            f"wide: {leap(locales, context, 'wide')}, narrow: {leap(locales, context, 'narrow')})")


# `months` and `monthPatterns` have no type; `child` matches type None for them.
days = hanidays()
lines = [
    f"// Generated by scripts/generate/chinese-calendar-words.py from CLDR {CLDR} (Debian's unicode-cldr-core 41-0.1),",
    "// zh's 11th month as CLDR 46 names it (LATER_CLDR_MONTHS).",
    "// Do not edit: run the script.",
    "",
    "extension LDMLChineseWords {",
    "    static func cldr(_ language: LDMLLanguage) -> LDMLChineseWords {",
    "        switch language {",
] + [f"        case .{case}: return {case}" for case, _ in LANGUAGES] + ["        }", "    }", "",
    "    /// The `hanidays` numbering system's 0–30 (CLDR's zh RBNF, %spellout-numbering-days).",
    f"    static let hanidays = {strings(days)}",
    ""]
for case, tag in LANGUAGES:
    locales = chain(tag)
    years = [lookup(locales, [("cyclicNameSets", None), ("cyclicNameSet", "years"), ("cyclicNameContext", "format"),
                              ("cyclicNameWidth", "abbreviated")], ("cyclicName", str(y))) for y in range(1, 61)]
    numeric = quoted(lookup(locales, [("monthPatterns", None), ("monthPatternContext", "numeric"),
                                      ("monthPatternWidth", "all")], ("monthPattern", "leap")))
    lines += [
        f"    private static let {case} = LDMLChineseWords(",
        f"        months: {months(case, locales, 'format')},",
        f"        standaloneMonths: {months(case, locales, 'stand-alone')},",
        f"        leapMonths: {patterns(locales, 'format')},",
        f"        standaloneLeapMonths: {patterns(locales, 'stand-alone')},",
        f"        numericLeapMonth: {numeric},",
        f"        cyclicYears: {strings(years)},",
        f"        dayNumbers: {'hanidays' if case in HANIDAYS else '[]'})",
    ]
lines += ["}", ""]
sys.stdout.write("\n".join(lines))
