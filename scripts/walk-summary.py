# The summary of a walk's log (scripts/walk): the source files entered, in order, and the
# back-steps, each a call into a file already entered from another file. Functions the
# compiler writes (witness tables, thunks, outlined copies, default arguments), which the
# debug information places in whichever file first needed them, are left out: a reader
# never walks into them. "Distinct" counts each back-step once however often a loop
# repeats it (a table built entry by entry calls back and forth thousands of times).
import collections
import re
import sys

OURS = re.compile(r"^\$s(11ZaoanServer|11ZaoanSystem|13ZaoanProtocol|9ZaoanCore|9ZaoanTime|9ZaoanText)")
WRITTEN_BY_COMPILER = re.compile(r"(Wl|WO[a-z]|TR|Tr|fA\d*_|Vw[a-z][a-z]|TW|TA|Tm|Ma|Mi|Mr|WV|Wb|WL)$")


def summary(title, path):
    entered, order = set(), []
    back, distinct = collections.Counter(), set()
    previous = None
    for line in open(path):
        _, place, function = line.rstrip("\n").split("\t")
        if not OURS.match(function) or WRITTEN_BY_COMPILER.search(function):
            continue
        name = place.rsplit(":", 1)[0]
        if name == previous:
            continue
        if name in entered:
            back[name] += 1
            distinct.add((previous, name))
        else:
            entered.add(name)
            order.append(name)
        previous = name
    print(f"{title}: {len(order)} files, {sum(back.values())} back-steps ({len(distinct)} distinct)")
    print("  files: " + " → ".join(name.split("/")[-1] for name in order))
    print("  back-steps: " + ", ".join(f"{name.split('/')[-1]} {count}×" for name, count in back.most_common()))
    print("  distinct: " + ", ".join(f"{a.split('/')[-1]} → {b.split('/')[-1]}" for a, b in sorted(distinct)))


if __name__ == "__main__":
    summary(sys.argv[1], sys.argv[2])
