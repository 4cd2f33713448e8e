// SPDX-License-Identifier: Apache-2.0
#include "tuneevent.h"

#include <QStringList>

namespace servelab::lab {

QString describeTuneEvents(const std::vector<TuneEvent> &events, std::int64_t startedAtMicros)
{
    QStringList parts;
    for (const TuneEvent &e : events) {
        const QString at = QString::number(double(e.atMicros - startedAtMicros) / 1e6, 'f', 1);
        parts << (e.made() ? QStringLiteral("%1 at %2 s").arg(e.change, at)
                           : QStringLiteral("%1 refused: %2").arg(e.change, e.error));
    }
    return parts.isEmpty() ? QString()
                           : QStringLiteral("tuned: ") + parts.join(QStringLiteral("; "));
}

} // namespace servelab::lab
