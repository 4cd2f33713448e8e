#include "loadreport.h"

#include "client/clientoptions.h"
#include "client/loadresult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace servelab::cli {

namespace {

constexpr double percentiles[] = {50, 66, 75, 80, 90, 95, 98, 99, 100};

QString line(const char *label, const QString &value)
{
    return QStringLiteral("%1 %2\n").arg(QLatin1String(label), -23).arg(value);
}

QString fixed(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

} // namespace

QString formatAbReport(const client::ClientOptions &o, const client::LoadResult &r)
{
    const double seconds = r.elapsedSeconds();
    const double perRequestMs = r.completed ? seconds * 1000.0 / double(r.completed) : 0.0;
    QString out;
    out += line("Server Hostname:", QString::fromStdString(o.host));
    out += line("Server Port:", QString::number(o.port));
    out += line("Document Path:", QString::fromStdString(o.path));
    if (r.ok)
        out += line("Document Length:", QStringLiteral("%1 bytes").arg(r.bodyBytes / r.completed));
    out += u'\n';
    out += line("Concurrency Level:", QString::number(r.concurrency));
    out += line("Time taken for tests:", fixed(seconds, 3) + QStringLiteral(" seconds"));
    out += line("Complete requests:", QString::number(r.completed));
    out += line("Failed requests:", QString::number(r.failed()));
    out += line("Keep-Alive:", o.keepAlive ? QStringLiteral("on, %1 connections").arg(r.connects)
                                           : QStringLiteral("off"));
    out += line("Total transferred:", QStringLiteral("%1 bytes").arg(r.bytesRead));
    out += line("HTML transferred:", QStringLiteral("%1 bytes").arg(r.bodyBytes));
    out += line("Requests per second:",
                fixed(r.requestsPerSecond(), 2) + QStringLiteral(" [#/sec] (mean)"));
    out += line("Time per request:",
                fixed(perRequestMs * r.concurrency, 3) + QStringLiteral(" [ms] (mean)"));
    out += line("Time per request:",
                fixed(perRequestMs, 3) +
                    QStringLiteral(" [ms] (mean, across all concurrent requests)"));
    out += line("Transfer rate:",
                fixed(r.kibPerSecond(), 2) + QStringLiteral(" [Kbytes/sec] received"));
    if (r.latency.count()) {
        out += QStringLiteral("\nPercentage of the requests served within a certain time (ms)\n");
        for (double p : percentiles)
            out += QStringLiteral(" %1% %2\n")
                       .arg(p, 4)
                       .arg(fixed(r.latency.valueAtPercentile(p) / 1000.0, 3), 9);
    }
    if (r.failed()) {
        out += QStringLiteral("\nErrors by kind:\n");
        for (std::size_t i = 0; i < r.errors.size(); ++i)
            if (r.errors[i])
                out += QStringLiteral("  %1 %2\n")
                           .arg(r.errors[i], 8)
                           .arg(QString::fromUtf8(
                               client::errorKindText(static_cast<client::ErrorKind>(i))));
    }
    return out;
}

QString formatJsonReport(const client::ClientOptions &o, const client::LoadResult &r)
{
    QJsonObject latency{
        {QStringLiteral("unit"), QStringLiteral("us")},
        {QStringLiteral("mean"), r.latency.mean()},
        {QStringLiteral("stddev"), r.latency.stddev()},
        {QStringLiteral("min"), qint64(r.latency.min())},
        {QStringLiteral("p50"), qint64(r.latency.valueAtPercentile(50))},
        {QStringLiteral("p90"), qint64(r.latency.valueAtPercentile(90))},
        {QStringLiteral("p99"), qint64(r.latency.valueAtPercentile(99))},
        {QStringLiteral("p99_9"), qint64(r.latency.valueAtPercentile(99.9))},
        {QStringLiteral("max"), qint64(r.latency.max())},
    };
    QJsonObject errors;
    for (std::size_t i = 0; i < r.errors.size(); ++i)
        errors.insert(QString::fromUtf8(client::errorKindKey(static_cast<client::ErrorKind>(i))),
                      qint64(r.errors[i]));
    const QJsonObject root{
        {QStringLiteral("url"), QStringLiteral("http://%1:%2%3")
                                    .arg(QString::fromStdString(o.host))
                                    .arg(o.port)
                                    .arg(QString::fromStdString(o.path))},
        {QStringLiteral("model"), QStringLiteral("closed")},
        {QStringLiteral("concurrency"), r.concurrency},
        {QStringLiteral("keep_alive"), o.keepAlive},
        {QStringLiteral("completed"), qint64(r.completed)},
        {QStringLiteral("ok"), qint64(r.ok)},
        {QStringLiteral("failed"), qint64(r.failed())},
        {QStringLiteral("errors"), errors},
        {QStringLiteral("connects"), qint64(r.connects)},
        {QStringLiteral("bytes_read"), qint64(r.bytesRead)},
        {QStringLiteral("body_bytes"), qint64(r.bodyBytes)},
        {QStringLiteral("elapsed_s"), r.elapsedSeconds()},
        {QStringLiteral("requests_per_s"), r.requestsPerSecond()},
        {QStringLiteral("kib_per_s"), r.kibPerSecond()},
        {QStringLiteral("latency"), latency},
    };
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact)) + u'\n';
}

} // namespace servelab::cli
