#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes the servelab-cli(1) man page to stdout: the sections below are written here, the
# COMMANDS section comes from the CLI's own --help of each command (its QCommandLineParser
# definitions), so the page never drifts from the program. Run by the build:
#   packaging/make-manpage.sh path/to/servelab-cli VERSION > servelab-cli.1
set -euo pipefail
cli=$1
version=${2:-}
# Defaults that name the user's folders read as ~ rather than the builder's home.
export HOME='~' QT_LOGGING_RULES='*.warning=false'
# An ASan build (preset asan) runs this too: its leak report is the asan tests' business.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
unset XDG_DATA_HOME XDG_CACHE_HOME XDG_CONFIG_HOME
export XDG_RUNTIME_DIR=${TMPDIR:-/tmp}

# troff-escapes text: backslashes, leading dots and quotes, hyphens in options.
escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }

# One command's options from its --help: "  -x, --name <arg>   text" lines and their
# continuation lines (indented further) become .TP paragraphs.
options() {
    "$cli" "$1" --help 2>/dev/null | awk '
        /^Options:/ { inside = 1; next }
        /^Arguments:/ { inside = 2; print ".PP\nArguments:"; next }
        !inside || /^$/ { next }
        /^  -h, --help|^  --help-all/ { skip = 1; next }
        /^  [^ ]/ {
            skip = 0
            line = substr($0, 3)
            split(line, parts, /  +/) # a term never holds two spaces in a row
            term = parts[1]
            text = substr(line, length(term) + 1)
            sub(/^ +/, "", text)
            printf ".TP\n.B %s\n%s\n", term, text
            next
        }
        skip { next }
        { sub(/^ +/, ""); print }
    ' | escape | sed -e 's/^\\&\.TP$/.TP/' -e 's/^\\&\.B /.B /' -e 's/^\\&\.PP$/.PP/'
}

# The one-paragraph description each command prints under its usage line.
about() {
    # (awk reads to the end: leaving early would make the CLI die of SIGPIPE, and pipefail fail)
    "$cli" "$1" --help 2>/dev/null | awk 'NR > 1 && /^$/ { done = 1 } NR > 1 && !done { print }' | escape
}

cat <<HEAD
.TH SERVELAB\\-CLI 1 "" "ServeLab $version" "User Commands"
.SH NAME
servelab\\-cli \\- measure how fast static files are served, and why
.SH SYNOPSIS
.B servelab\\-cli
.I command
.RI [ options ]
.br
.B servelab\\-cli \\-\\-version
.SH DESCRIPTION
ServeLab runs static file servers (its own, in many I/O modes, or nginx, lighttpd, Apache
httpd, h2o and Tomcat, configured and launched on 127.0.0.1) against load clients shaped like
ab, wrk, wrk2 and faban, and reports KiB/s per file size with the server's file descriptors,
threads, CPU and memory sampled every 100 ms on the client's clock.
.B servelab
is the window;
.B servelab\\-cli
does the same from a terminal or a script.
.PP
Sizes are written 4K, 64K, 1M (powers of 1024) or as a doubling range 4K..32M; rates are KiB/s
(1024 bytes), counting every byte read, as ab's "Transfer rate" does.
.SH COMMANDS
HEAD
for command in serve load sweep run compare presets import watch tune hosts agent k8s-job; do
    printf '.SS "%s"\n' "$command"
    about "$command"
    options "$command"
done
cat <<'MODES'
.SS "modes"
Prints the server modes that run on this machine, one per line, on standard output; the others,
each with the reason (no liburing at build time, a kernel that refuses io_uring), on standard
error.
MODES
cat <<'TAIL'
.SH EXIT STATUS
.TP
.B 0
done
.TP
.B 1
the run failed (a port in use, a URL that refuses, every point did not finish)
.TP
.B 2
bad arguments, with one line on standard error naming the problem
.SH ENVIRONMENT
.TP
.B XDG_DATA_HOME
the results database is $XDG_DATA_HOME/servelab/servelab.db (default ~/.local/share)
.TP
.B XDG_CACHE_HOME
generated document roots live under $XDG_CACHE_HOME/servelab (default ~/.cache)
.SH EXAMPLES
The table of the Tomcat thread ServeLab grew from (ab \-c 1 over 4 KiB to 32 MiB):
.PP
.nf
.RS
servelab\-cli sweep \-\-sizes 4K..32M \-c 1 \-n 200
.RE
.fi
.PP
A preset, its files and charts written to a folder:
.PP
.nf
.RS
servelab\-cli presets
servelab\-cli run seed001\-httpd\-vs\-tomcat \-\-out results/
.RE
.fi
.PP
A server of each mode under a load as wrk would make it:
.PP
.nf
.RS
servelab\-cli serve \-\-mode epoll+sendfile \-\-root DIR \-\-port 8080 &
servelab\-cli load http://127.0.0.1:8080/1M.bin \-\-model duration \-d 10 \-c 8 \-\-threads 2
.RE
.fi
.PP
Other hosts checked, then an experiment served on one and loaded from the others (the agents
are started over ssh):
.PP
.nf
.RS
servelab\-cli hosts check hosts.json
servelab\-cli run spec.json \-\-hosts hosts.json
.RE
.fi
.SH SEE ALSO
.BR servelab (1)
is not a separate page: run
.B servelab \-\-help
for the window's options.
.BR ab (1),
.BR wrk (1),
.BR nginx (8)
TAIL
