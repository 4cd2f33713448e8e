#include "runcharts.h"

#include "throughputchart.h"
#include "timelinechart.h"

#include <QDir>
#include <QImageWriter>
#include <QSaveFile>

#include <algorithm>

namespace servelab::ui {

namespace {

bool writePng(const QImage &image, const QString &path, QString *error)
{
    QSaveFile file(path);
    QImageWriter writer(&file, "png");
    if (!file.open(QIODevice::WriteOnly) || !writer.write(image) || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2")
                     .arg(path, file.error() != QFileDevice::NoError ? file.errorString()
                                                                     : writer.errorString());
        return false;
    }
    return true;
}

} // namespace

bool writeRunCharts(const QList<lab::PointResult> &points, const QString &folder,
                    QStringList *written, QString *error)
{
    const QSize size(1200, 700);
    const QDir dir(folder);
    QList<quint64> sizes;
    for (const auto &p : points)
        if (!sizes.contains(p.sizeBytes))
            sizes << p.sizeBytes;
    std::sort(sizes.begin(), sizes.end());

    ThroughputChart throughput;
    throughput.resize(size);
    throughput.clear(sizes);
    for (const auto &p : points)
        throughput.addPoint(p);
    if (!writePng(throughput.render(), dir.filePath(QStringLiteral("throughput.png")), error))
        return false;
    *written << QStringLiteral("throughput.png");

    TimelineChart fds;
    fds.resize(size);
    fds.setPoints(points);
    if (!writePng(fds.render(), dir.filePath(QStringLiteral("fds.png")), error))
        return false;
    *written << QStringLiteral("fds.png");
    return true;
}

} // namespace servelab::ui
