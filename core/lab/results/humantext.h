// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

// How the CLI and the window write a duration and a count for people to read.

// "40 s", "2 min 5 s", "1 h 3 min": how long a run took or will take (seconds rounded up).
QString durationText(qint64 ms);
// "1 point", "14 points": `n` and the noun, plural past one (`plural` empty: noun + "s").
QString countText(qint64 n, const QString &noun, const QString &plural = {});

} // namespace servelab::lab
