"""What the CLDR generators share (month-words.py, cldr-words.py, ldml-words.py): Babel
pinned at the release that carries the CLDR named, the eight languages zaoan speaks with
the locale each is read in, and Swift string literals.

Imported with the Babel folder given on the command line (default .build/oracle-python,
which scripts/ensure-oracles fills) put first on the path.
"""
import sys

VERSION = "2.17.0"
CLDR = "47"  # Babel 2.17.0's data (its changelog: "Upgrade to CLDR 47")
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".build/oracle-python")
import babel  # noqa: E402

assert babel.__version__ == VERSION, f"pin babel=={VERSION}"

# Swift case, locale (the language's own region, as Language.localeIdentifier), CLDR
# language-script.
LANGUAGES = [("zh", "zh_Hans_CN", "zh-Hans"), ("zhHant", "zh_Hant_TW", "zh-Hant"), ("en", "en_US", "en"),
             ("ja", "ja_JP", "ja"), ("ko", "ko_KR", "ko"), ("de", "de_DE", "de"), ("fr", "fr_FR", "fr"),
             ("es", "es_ES", "es")]


def week_data(locale):
    """CLDR's weekData for the locale's region: the first day of the week (0 = Sunday, as
    struct tm counts; Babel counts from Monday = 0) and the minimal days of the first week."""
    return (locale.first_week_day + 1) % 7, locale.min_week_days


def quoted(text):
    """A Swift string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def strings(items):
    """A Swift array of string literals."""
    return "[" + ", ".join(quoted(i) for i in items) + "]"
