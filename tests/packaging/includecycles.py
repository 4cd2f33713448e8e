#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when the folders of core/ or of ui/ include each other in a circle.

Each file's quoted includes are resolved as the build resolves them (beside the file first,
then from core/ and ui/, the include roots); an include from folder A of a file in folder B
is an edge A -> B. Any cycle among the folders is printed with one include that makes each
of its edges, so that the fix is plain. Usage: includecycles.py SOURCE_DIR
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROOTS = ("core", "ui")


def sources(src):
    for root in ROOTS:
        for folder, _, names in os.walk(os.path.join(src, root)):
            for name in names:
                if name.endswith((".h", ".cpp")):
                    yield os.path.join(folder, name)


def resolve(src, including, target):
    for base in [os.path.dirname(including)] + [os.path.join(src, r) for r in ROOTS]:
        path = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(path):
            return path
    return None  # generated (moc, version) or a system header


def folder(src, path):
    return os.path.relpath(os.path.dirname(path), src)


def main(src):
    edges = {}  # (from folder, to folder) -> an example "file: include"
    for path in sources(src):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for target in INCLUDE.findall(text):
            included = resolve(src, path, target)
            if not included:
                continue
            a, b = folder(src, path), folder(src, included)
            if a != b:
                edges.setdefault((a, b), "%s: #include \"%s\"" % (os.path.relpath(path, src), target))
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    # Tarjan's strongly connected components: any with more than one folder is a circle.
    index, low, stack, on, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    for component in components:
        print("include circle between folders: " + ", ".join(component))
        for (a, b), example in sorted(edges.items()):
            if a in component and b in component:
                print("  %s -> %s   (%s)" % (a, b, example))
    if components:
        print("each folder includes only folders below it (HACKING.md, the layer map)")
        return 1
    folders = {f for edge in edges for f in edge}
    print("no include circle among the %d folders of %s that include each other"
          % (len(folders), " and ".join(ROOTS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
