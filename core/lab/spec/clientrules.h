// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "specfield.h"

#include <QString>

namespace servelab::lab {

// The numbers a closed (ab) or duration (wrk) client is given, and the rules between them,
// written once: `servelab-cli load`, the spec reader, SweepSpec::validate (the form) and the
// wizard's client page all ask check(), each naming the fields its own way.
struct ClientShape
{
    bool closed = true;       // ab: requests, concurrency at a time; else wrk: connections, threads
    qint64 requests = 1;      // closed
    qint64 concurrency = 1;   // closed: the most in flight; duration: the fewest connections
    qint64 clientThreads = 1; // duration
};

class ClientRules
{
public:
    struct Problem
    {
        const SpecField *field = nullptr; // the number to change; null when there is no problem
        QString what;                     // without the field's name: "64 cannot exceed -n (1)…"

        explicit operator bool() const { return field != nullptr; }
        // "NAME what" for a flag or a label ("-c 64 cannot exceed -n (1), as in ab").
        QString text(FieldNaming naming) const;
    };

    // The first range or rule `shape` breaks, its words naming fields as `naming` does.
    static Problem check(const ClientShape &shape, FieldNaming naming);
};

} // namespace servelab::lab
