# The summary of a walk's log (scripts/walk): the source files entered, in order, and the
# back-steps, each a call from one file into another already entered (returns are not steps). Functions the
# compiler writes (witness tables, thunks, outlined copies, default arguments), which the
# debug information places in whichever file first needed them, are left out: a reader
# never walks into them. "Distinct" counts each back-step once however often a loop
# repeats it (a table built entry by entry calls back and forth thousands of times).
import collections
import re
import sys

OURS = re.compile(r"^\$s(11ZaoanServer|11ZaoanSystem|13ZaoanProtocol|9ZaoanCore|9ZaoanTime|9ZaoanText)")
WRITTEN_BY_COMPILER = re.compile(r"(Wl|WO[a-z]|TR|Tr|fA\d*_|Vw[a-z][a-z]|TW|TA|Tm|Ma|Mi|Mr|WV|Wb|WL)$")


def ours(function):
    return OURS.match(function) is not None and WRITTEN_BY_COMPILER.search(function) is None


def summary(title, path):
    """Files in the order first entered; a back-step is a call from one file into another
    already entered (a return is not a step)."""
    entered, order = set(), []
    back, distinct = collections.Counter(), set()
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if not ours(fields[2]):
            continue
        name = fields[1].rsplit(":", 1)[0]
        # The nearest caller that is the project's own code (past the compiler's thunks).
        caller = next((fields[i].rsplit(":", 1)[0] for i in range(3, len(fields) - 1, 2) if ours(fields[i + 1])), None)
        if name not in entered:
            entered.add(name)
            order.append(name)
        elif caller is not None and caller != name:
            back[name] += 1
            distinct.add((caller, name))
    short = lambda name: name.split("/")[-1]
    print(f"{title}: {len(order)} files, {sum(back.values())} back-steps ({len(distinct)} distinct)")
    print("  files: " + " → ".join(short(name) for name in order))
    print("  back-steps: " + ", ".join(f"{short(name)} {count}×" for name, count in back.most_common()))
    print("  distinct: " + ", ".join(f"{short(a)} → {short(b)}" for a, b in sorted(distinct)))


if __name__ == "__main__":
    summary(sys.argv[1], sys.argv[2])
