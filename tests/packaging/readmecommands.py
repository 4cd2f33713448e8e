#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when the README shows a command or a flag that no longer exists.

Every `servelab-cli COMMAND ... --flag` in the README's code (blocks and inline spans) is
checked against `servelab-cli COMMAND --help`, and every `packaging/*.sh --flag` against that
script's source. Usage: readmecommands.py SERVELAB_CLI SOURCE_DIR [DOC.md...]
(default: README.md, HACKING.md and docs/*.md).
"""
import os
import re
import subprocess
import sys

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# servelab-cli as a command is run: first in its snippet, or after a path, `$ `, `exec ARG `
# or `time ` (prose in a code block, "the servelab-cli commands", is not).
CLI = re.compile(r"(?:^\s*|/|\$ |exec \S+ |time )servelab-cli\s+([a-z][a-z0-9-]*|--[a-z-]+)"
                 r"([^`\n#|]*)")
SCRIPT = re.compile(r"(packaging/[a-z]+\.sh)([^`\n#|]*)")


def code_of(text):
    """The README's code: fenced blocks whole, and inline `spans`."""
    out = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        out.extend([line] if fenced else re.findall(r"`([^`]+)`", line))
    return out


def help_of(cli, command, cache={}):
    """Exit status and text of `servelab-cli COMMAND --help` (of `servelab-cli --OPTION`)."""
    if command not in cache:
        run = subprocess.run([cli, command] + ([] if command.startswith("--") else ["--help"]), capture_output=True, text=True,
                             timeout=30, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
        cache[command] = (run.returncode, run.stdout + run.stderr)
    return cache[command]


def main(cli, src, docs):
    problems, checked = [], 0
    commands = help_of(cli, "--help")[1]  # the list of commands
    for doc in docs:
        with open(os.path.join(src, doc), encoding="utf-8") as f:
            code = code_of(f.read())
        for snippet in code:
            for command, rest in CLI.findall(snippet):
                checked += 1
                if command.startswith("--"):
                    if help_of(cli, command)[0] != 0:
                        problems.append("%s: servelab-cli %s: no such option" % (doc, command))
                    continue
                code_, text = help_of(cli, command)
                if code_ != 0 or not re.search(r"^\s+%s\s" % re.escape(command), commands, re.M):
                    problems.append("%s: servelab-cli %s: no such command" % (doc, command))
                    continue
                for flag in FLAG.findall(rest):
                    checked += 1
                    if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(flag), text):
                        problems.append("%s: servelab-cli %s %s: not in `servelab-cli %s --help`"
                                        % (doc, command, flag, command))
            for script, rest in SCRIPT.findall(snippet):
                path = os.path.join(src, script)
                checked += 1
                if not os.path.isfile(path):
                    problems.append("%s: %s: no such script" % (doc, script))
                    continue
                with open(path, encoding="utf-8") as f:
                    source = f.read()
                for flag in FLAG.findall(rest):
                    checked += 1
                    if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(flag), source):
                        problems.append("%s: %s %s: the script takes no such flag"
                                        % (doc, script, flag))
    for problem in problems:
        print(problem)
    if problems:
        print("%d of %d commands and flags in the docs no longer exist: fix the docs (or the "
              "program)" % (len(problems), checked))
        return 1
    print("%d commands and flags in %d documents, each one the program has" % (checked, len(docs)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: readmecommands.py SERVELAB_CLI SOURCE_DIR [DOC.md...]")
    docs = sys.argv[3:] or ["README.md", "HACKING.md"] + sorted(
        os.path.join("docs", name) for name in os.listdir(os.path.join(sys.argv[2], "docs"))
        if name.endswith(".md"))
    sys.exit(main(sys.argv[1], sys.argv[2], docs))
