// SPDX-License-Identifier: Apache-2.0
#include "agenthistogram.h"

#include "client/hdrhistogramlog.h"

namespace servelab::remote {

QJsonObject histogramToJson(const client::LatencyHistogram &histogram)
{
    return {
        {QStringLiteral("hdr"), QString::fromStdString(client::HdrHistogramLog::encode(histogram))},
        {QStringLiteral("min"), qint64(histogram.min())},
        {QStringLiteral("max"), qint64(histogram.max())},
        {QStringLiteral("sum"), histogram.sum()},
        {QStringLiteral("sum_squares"), histogram.sumSquares()}};
}

std::optional<client::LatencyHistogram> histogramFromJson(const QJsonObject &object)
{
    const QByteArray encoded = object.value(QStringLiteral("hdr")).toString().toLatin1();
    auto histogram = client::HdrHistogramLog::decode(
        std::string_view(encoded.constData(), size_t(encoded.size())));
    if (!histogram)
        return std::nullopt;
    if (histogram->count() > 0)
        histogram->restoreMoments(object.value(QStringLiteral("min")).toInteger(),
                                  object.value(QStringLiteral("max")).toInteger(),
                                  object.value(QStringLiteral("sum")).toDouble(),
                                  object.value(QStringLiteral("sum_squares")).toDouble());
    return histogram;
}

} // namespace servelab::remote
