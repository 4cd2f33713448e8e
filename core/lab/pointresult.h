#pragma once

#include "client/loadresult.h"

#include <QMetaType>
#include <QString>

namespace servelab::lab {

// One measured point of a sweep: a target at one file size.
struct PointResult
{
    int index = 0;
    quint64 sizeBytes = 0;
    QString target;   // the mode, e.g. "epoll+sendfile"
    bool dnf = false; // did not finish: no number, only `reason`
    QString reason;
    client::LoadResult load;

    double kibPerSecond() const { return dnf ? 0.0 : load.kibPerSecond(); }
};

} // namespace servelab::lab

Q_DECLARE_METATYPE(servelab::lab::PointResult)
