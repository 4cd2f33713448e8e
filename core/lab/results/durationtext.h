// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

// "40 s", "2 min 5 s", "1 h 3 min": how long a run took or will take, as the CLI's progress
// lines and the window's run panel write it (seconds rounded up).
QString durationText(qint64 ms);

} // namespace servelab::lab
