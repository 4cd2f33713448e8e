// SPDX-License-Identifier: Apache-2.0
#include "chartfile.h"

#include <QChart>
#include <QChartView>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace servelab::ui::chartfile {

namespace {

bool fail(QString *error, const QString &path, const QString &why)
{
    if (error)
        *error = QStringLiteral("cannot write %1: %2").arg(path, why);
    return false;
}

// The chart laid out at the view's size, also when the view was never shown (headless).
QRectF laidOut(QChartView *view)
{
    if (view->chart()->size() != QSizeF(view->size()))
        view->chart()->resize(view->size());
    return QRectF(QPointF(), view->size());
}

} // namespace

bool writePng(QChartView *view, const QString &path, QString *error, qreal scale, QSize size)
{
    if (size.isEmpty())
        size = view->size();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(view->palette().window().color());
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        // Laid out at the asked size for the drawing, then back to the view's.
        const QSizeF shown = laidOut(view).size();
        if (size != view->size())
            view->chart()->resize(size);
        const QRectF target(QPointF(), size);
        view->scene()->render(&painter, target, target);
        if (size != view->size())
            view->chart()->resize(shown);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path, file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        file.cancelWriting();
        return fail(error, path, writer.errorString());
    }
    return file.commit() || fail(error, path, file.errorString());
}

bool writeSvg(QChartView *view, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path, file.errorString());
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(), view->size()));
    svg.setTitle(view->chart()->title());
    svg.setDescription(QStringLiteral("ServeLab"));
    QPainter painter;
    if (!painter.begin(&svg)) {
        file.cancelWriting();
        return fail(error, path, QStringLiteral("the SVG writer could not start"));
    }
    const QRectF area = laidOut(view);
    view->scene()->render(&painter, area, area);
    painter.end();
    return file.commit() || fail(error, path, file.errorString());
}

} // namespace servelab::ui::chartfile
