// SPDX-License-Identifier: Apache-2.0
#include "loadreport.h"

#include "client/hdrhistogramlog.h"

#include "client/clientoptions.h"
#include "client/loadresult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

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

// wrk's units: 635.91us, 12.92ms, 1.02s.
QString wrkTime(double micros)
{
    if (micros < 1000)
        return fixed(micros, 2) + QStringLiteral("us");
    if (micros < 1e6)
        return fixed(micros / 1000, 2) + QStringLiteral("ms");
    return fixed(micros / 1e6, 2) + QStringLiteral("s");
}
// wrk's metric units: 56.20k.
QString wrkCount(double value)
{
    if (value < 1000)
        return fixed(value, 2);
    if (value < 1e6)
        return fixed(value / 1000, 2) + u'k';
    return fixed(value / 1e6, 2) + u'M';
}
// wrk's binary units: 1.21GB means GiB.
QString wrkBytes(double bytes)
{
    const char *units[] = {"B", "KB", "MB", "GB", "TB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return fixed(bytes, 2) + QLatin1String(units[unit]);
}

QString errorsByKind(const client::LoadResult &r)
{
    QString out;
    for (std::size_t i = 0; i < r.errors.size(); ++i) {
        if (!r.errors[i])
            continue;
        const auto kind = static_cast<client::ErrorKind>(i);
        out += QStringLiteral("  %1 %2")
                   .arg(r.errors[i], 8)
                   .arg(QString::fromUtf8(client::errorKindText(kind)));
        // OpenSSL's reason, as it says it (the first one seen).
        if ((kind == client::ErrorKind::TlsCertificate ||
             kind == client::ErrorKind::TlsHandshake) &&
            !r.tlsProblem.empty())
            out += QStringLiteral(": ") + QString::fromStdString(r.tlsProblem);
        out += u'\n';
    }
    return out;
}

QString urlOf(const client::ClientOptions &o)
{
    return QStringLiteral("%1://%2:%3%4")
        .arg(o.tls.enabled ? QStringLiteral("https") : QStringLiteral("http"),
             QString::fromStdString(o.host))
        .arg(o.port)
        .arg(QString::fromStdString(o.path));
}

// https: the handshakes the run made, under which policy, and how long they took.
QString tlsSummary(const client::ClientOptions &o, const client::LoadResult &r, const char *indent)
{
    if (!o.tls.enabled)
        return {};
    const client::LatencyHistogram &h = r.tlsTimes;
    return QStringLiteral("%1TLS handshakes: %2 (%3 resumed), policy %4; handshake mean %5 ms, "
                          "p99 %6 ms\n")
        .arg(QLatin1String(indent))
        .arg(r.tlsHandshakes)
        .arg(r.tlsResumed)
        .arg(QString::fromUtf8(client::handshakePolicyName(o.tls.policy)),
             fixed(h.mean() / 1000, 3), fixed(double(h.valueAtPercentile(99)) / 1000, 3));
}

// The protocol the client spoke: HTTP/1.1 (or ab's 1.0), h2c or h2.
QString protocolOf(const client::ClientOptions &o)
{
    if (o.http2)
        return o.tls.enabled ? QStringLiteral("h2") : QStringLiteral("h2c");
    return o.http10 ? QStringLiteral("http/1.0") : QStringLiteral("http/1.1");
}

// How an HTTP/2 run's requests in flight were made up ("4 connections x 10 streams, h2c").
QString streamsNote(const client::ClientOptions &o)
{
    if (!o.http2)
        return {};
    return QStringLiteral(" (%1 connections x %2 streams, %3)")
        .arg(o.concurrency)
        .arg(o.streams)
        .arg(protocolOf(o));
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
    out += line("Concurrency Level:", QString::number(r.concurrency) + streamsNote(o));
    out += line("Time taken for tests:", fixed(seconds, 3) + QStringLiteral(" seconds"));
    out += line("Complete requests:", QString::number(r.completed));
    out += line("Failed requests:", QString::number(r.failed()));
    out += line("Keep-Alive:", o.keepAlive ? QStringLiteral("on, %1 connections").arg(r.connects)
                                           : QStringLiteral("off"));
    out += tlsSummary(o, r, "");
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
    if (r.connectTimes.count()) {
        // ab's table: whole milliseconds, the standard deviation with one decimal.
        out += QStringLiteral("\nConnection Times (ms)\n"
                              "              min  mean[+/-sd] median   max\n");
        const auto row = [&](const char *label, const client::LatencyHistogram &h) {
            const auto ms = [](double micros) { return qint64(std::llround(micros / 1000)); };
            out += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                       .arg(QLatin1String(label), -11)
                       .arg(ms(double(h.min())), 5)
                       .arg(ms(h.mean()), 4)
                       .arg(fixed(h.stddev() / 1000, 1), 5)
                       .arg(ms(double(h.valueAtPercentile(50))), 6)
                       .arg(ms(double(h.max())), 7);
        };
        row("Connect:", r.connectTimes);
        if (r.tlsTimes.count())
            row("TLS:", r.tlsTimes); // part of Connect, as ab counts it
        row("Processing:", r.processingTimes);
        row("Waiting:", r.waitingTimes);
        row("Total:", r.latency);
    }
    if (r.latency.count()) {
        out += QStringLiteral("\nPercentage of the requests served within a certain time (ms)\n");
        for (double p : percentiles)
            out += QStringLiteral(" %1% %2\n")
                       .arg(p, 4)
                       .arg(fixed(r.latency.valueAtPercentile(p) / 1000.0, 3), 9);
    }
    if (r.failed())
        out += QStringLiteral("\nErrors by kind:\n") + errorsByKind(r);
    return out;
}

QString formatWrkReport(const client::ClientOptions &o, const client::LoadResult &r,
                        const std::vector<client::LoadResult> &perThread, double seconds)
{
    QString out = QStringLiteral("Running %1s test @ %2\n")
                      .arg(fixed(seconds, seconds < 10 ? 1 : 0), urlOf(o));
    out += QStringLiteral("  %1 threads and %2 connections%3\n")
               .arg(perThread.size())
               .arg(o.concurrency)
               .arg(o.http2
                        ? QStringLiteral(", %1 streams each (%2)").arg(o.streams).arg(protocolOf(o))
                        : QString());
    // Req/Sec per thread: mean, standard deviation and maximum across the threads.
    double sum = 0, squares = 0, most = 0;
    for (const auto &t : perThread) {
        const double rate = r.elapsedMicros > 0 ? double(t.completed) / r.elapsedSeconds() : 0;
        sum += rate;
        squares += rate * rate;
        most = std::max(most, rate);
    }
    const double n = double(std::max<std::size_t>(perThread.size(), 1));
    const double mean = sum / n;
    const double spread = std::sqrt(std::max(0.0, squares / n - mean * mean));
    out += QStringLiteral("  Thread Stats   Avg      Stdev     Max\n");
    out += QStringLiteral("    Latency %1 %2 %3\n")
               .arg(wrkTime(r.latency.mean()), 9)
               .arg(wrkTime(r.latency.stddev()), 9)
               .arg(wrkTime(double(r.latency.max())), 9);
    out += QStringLiteral("    Req/Sec %1 %2 %3\n")
               .arg(wrkCount(mean), 9)
               .arg(wrkCount(spread), 9)
               .arg(wrkCount(most), 9);
    out += QStringLiteral("  Latency Distribution\n");
    for (double p : {50.0, 75.0, 90.0, 99.0})
        out += QStringLiteral("  %1% %2\n")
                   .arg(p, 4, 'f', 0)
                   .arg(wrkTime(double(r.latency.valueAtPercentile(p))), 9);
    out += QStringLiteral("  %1 requests in %2s, %3 read\n")
               .arg(r.completed)
               .arg(fixed(r.elapsedSeconds(), 2), wrkBytes(double(r.bytesRead)));
    if (r.failed())
        out += QStringLiteral("  Errors by kind:\n") + errorsByKind(r);
    if (r.unfinished)
        out +=
            QStringLiteral("  %1 requests in flight at the end, not counted\n").arg(r.unfinished);
    out += tlsSummary(o, r, "  ");
    out += QStringLiteral("Requests/sec: %1\n").arg(fixed(r.requestsPerSecond(), 2), 9);
    out +=
        QStringLiteral("Transfer/sec: %1\n")
            .arg(wrkBytes(r.elapsedMicros > 0 ? double(r.bytesRead) / r.elapsedSeconds() : 0), 9);
    return out;
}

static QJsonObject latencyJson(const client::LatencyHistogram &h)
{
    return QJsonObject{
        {QStringLiteral("unit"), QStringLiteral("us")},
        {QStringLiteral("mean"), h.mean()},
        {QStringLiteral("stddev"), h.stddev()},
        {QStringLiteral("min"), qint64(h.min())},
        {QStringLiteral("p50"), qint64(h.valueAtPercentile(50))},
        {QStringLiteral("p90"), qint64(h.valueAtPercentile(90))},
        {QStringLiteral("p99"), qint64(h.valueAtPercentile(99))},
        {QStringLiteral("p99_9"), qint64(h.valueAtPercentile(99.9))},
        {QStringLiteral("max"), qint64(h.max())},
        // The whole histogram, in HdrHistogram's compressed encoding (its tools decode it).
        {QStringLiteral("hdr"), QString::fromStdString(client::HdrHistogramLog::encode(h))},
    };
}

QString formatWrk2Report(const client::ClientOptions &o, const client::RateClient::Result &run,
                         double seconds)
{
    const client::LoadResult &r = run.total;
    QString out = QStringLiteral("Running %1s test @ %2\n")
                      .arg(fixed(seconds, seconds < 10 ? 1 : 0), urlOf(o));
    out += QStringLiteral("  %1 threads and %2 connections, %3 requests/s offered\n")
               .arg(run.perThread.size())
               .arg(o.concurrency)
               .arg(fixed(run.offeredPerSecond, 0));
    const auto distribution = [&](const client::LatencyHistogram &h) {
        QString text;
        for (double p : {50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0})
            text += QStringLiteral(" %1% %2\n")
                        .arg(fixed(p, 3), 8)
                        .arg(wrkTime(double(h.valueAtPercentile(p))), 9);
        return text;
    };
    out += QStringLiteral("  Latency Distribution (corrected: from each request's intended send "
                          "time)\n") +
           distribution(r.latency);
    out += QStringLiteral("  Uncorrected Latency (from the actual send; hides the server's "
                          "stalls)\n") +
           distribution(run.uncorrected);
    out += QStringLiteral("  %1 requests in %2s, %3 read\n")
               .arg(r.completed)
               .arg(fixed(r.elapsedSeconds(), 2), wrkBytes(double(r.bytesRead)));
    out += QStringLiteral("  %1 sent late, %2 slots missed, %3 in flight at the end\n")
               .arg(run.late)
               .arg(run.missed)
               .arg(r.unfinished);
    out += tlsSummary(o, r, "  ");
    if (r.failed())
        out += QStringLiteral("  Errors by kind:\n") + errorsByKind(r);
    out += QStringLiteral("Requests/sec: %1\n").arg(fixed(r.requestsPerSecond(), 2), 9);
    out +=
        QStringLiteral("Transfer/sec: %1\n")
            .arg(wrkBytes(r.elapsedMicros > 0 ? double(r.bytesRead) / r.elapsedSeconds() : 0), 9);
    return out;
}

QString formatSamplesCsv(const std::vector<client::ClientSample> &samples)
{
    QString out = QStringLiteral("t_s,interval_s,completed,ok,failed,req_per_s,kib_per_s,open,"
                                 "p50_us,p90_us,p99_us,max_us\n");
    for (const auto &s : client::sumByInterval(samples)) {
        const double seconds = double(s.intervalMicros) / 1e6;
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12\n")
                   .arg(fixed(double(s.endMicros) / 1e6, 3), fixed(seconds, 3))
                   .arg(s.completed)
                   .arg(s.ok)
                   .arg(s.failed)
                   .arg(fixed(seconds > 0 ? double(s.completed) / seconds : 0, 1),
                        fixed(seconds > 0 ? double(s.bytesRead) / 1024 / seconds : 0, 1))
                   .arg(s.openConnections)
                   .arg(s.latency.valueAtPercentile(50))
                   .arg(s.latency.valueAtPercentile(90))
                   .arg(s.latency.valueAtPercentile(99))
                   .arg(s.latency.max());
    }
    return out;
}

QString formatHdrLog(const std::vector<client::ClientSample> &samples, double startEpochSeconds)
{
    client::HdrHistogramLog log(startEpochSeconds);
    for (const auto &s : client::sumByInterval(samples))
        log.add(double(s.endMicros - s.intervalMicros) / 1e6, double(s.intervalMicros) / 1e6,
                s.latency);
    return QString::fromStdString(log.text());
}

QString formatFabanReport(const client::RampClient::Result &run)
{
    const client::LoadResult &r = run.steady;
    const double errors = r.completed ? 100.0 * double(r.failed()) / double(r.completed) : 0;
    QString out;
    out += QStringLiteral("ops/sec: %1\n").arg(fixed(r.requestsPerSecond(), 3));
    out += QStringLiteral("% errors: %1\n").arg(fixed(errors, 3));
    // Seconds, as fhb; six decimals, since loopback answers in well under a millisecond.
    out += QStringLiteral("avg. time: %1\n").arg(fixed(r.latency.mean() / 1e6, 6));
    out += QStringLiteral("max time: %1\n").arg(fixed(double(r.latency.max()) / 1e6, 6));
    out +=
        QStringLiteral("90th %: %1\n").arg(fixed(double(r.latency.valueAtPercentile(90)) / 1e6, 6));
    out += QStringLiteral("\n%1 operations in the %2 s steady state (%3 in ramp-up and ramp-down, "
                          "not counted)\n")
               .arg(r.completed)
               .arg(fixed(r.elapsedSeconds(), 1))
               .arg(run.outsideSteady);
    const auto verdict = [](bool pass) {
        return pass ? QStringLiteral("PASS") : QStringLiteral("FAIL");
    };
    const QString within = QString::number(client::RampClient::Result::tolerance * 100, 'f', 0);
    out += QStringLiteral("Little's law: %1 users, X (R + Z) = %2: %3 (within %4 %)\n")
               .arg(run.users)
               .arg(fixed(run.littleUsers, 2), verdict(run.littlePass), within);
    if (run.thinkTargetMs > 0)
        out += QStringLiteral("Think time: target %1 ms, measured %2 ms: %3 (within %4 %)\n")
                   .arg(fixed(run.thinkTargetMs, 1), fixed(run.thinkActualMs, 1),
                        verdict(run.thinkPass), within);
    if (r.failed())
        out += QStringLiteral("Errors by kind:\n") + errorsByKind(r);
    return out;
}

QString formatJsonReport(const client::ClientOptions &o, const client::LoadResult &r,
                         const QString &model, const std::vector<client::LoadResult> &perThread,
                         const client::RateClient::Result *rate,
                         const client::RampClient::Result *ramp)
{
    const QJsonObject latency = latencyJson(r.latency);
    QJsonObject errors;
    for (std::size_t i = 0; i < r.errors.size(); ++i)
        errors.insert(QString::fromUtf8(client::errorKindKey(static_cast<client::ErrorKind>(i))),
                      qint64(r.errors[i]));
    QJsonObject root{
        {QStringLiteral("url"), urlOf(o)},
        {QStringLiteral("model"), model},
        {QStringLiteral("concurrency"), r.concurrency},
        {QStringLiteral("keep_alive"), o.keepAlive},
        {QStringLiteral("protocol"), protocolOf(o)},
        {QStringLiteral("streams"), o.streamsPerConnection()},
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
        {QStringLiteral("unfinished"), qint64(r.unfinished)},
    };
    if (o.tls.enabled)
        root.insert(QStringLiteral("tls"),
                    QJsonObject{
                        {QStringLiteral("policy"),
                         QString::fromUtf8(client::handshakePolicyName(o.tls.policy))},
                        {QStringLiteral("handshakes"), qint64(r.tlsHandshakes)},
                        {QStringLiteral("resumed"), qint64(r.tlsResumed)},
                        {QStringLiteral("handshake_latency"), latencyJson(r.tlsTimes)},
                        {QStringLiteral("problem"), QString::fromStdString(r.tlsProblem)},
                    });
    if (r.connectTimes.count())
        root.insert(QStringLiteral("connection_times"),
                    QJsonObject{{QStringLiteral("connect"), latencyJson(r.connectTimes)},
                                {QStringLiteral("processing"), latencyJson(r.processingTimes)},
                                {QStringLiteral("waiting"), latencyJson(r.waitingTimes)}});
    if (rate) {
        root.insert(QStringLiteral("latency_uncorrected"), latencyJson(rate->uncorrected));
        root.insert(QStringLiteral("offered_per_s"), rate->offeredPerSecond);
        root.insert(QStringLiteral("late"), qint64(rate->late));
        root.insert(QStringLiteral("missed"), qint64(rate->missed));
    }
    if (ramp) {
        root.insert(QStringLiteral("outside_steady"), qint64(ramp->outsideSteady));
        root.insert(QStringLiteral("littles_law"),
                    QJsonObject{{QStringLiteral("users"), ramp->users},
                                {QStringLiteral("computed_users"), ramp->littleUsers},
                                {QStringLiteral("pass"), ramp->littlePass}});
        root.insert(QStringLiteral("think_time"),
                    QJsonObject{{QStringLiteral("target_ms"), ramp->thinkTargetMs},
                                {QStringLiteral("measured_ms"), ramp->thinkActualMs},
                                {QStringLiteral("pass"), ramp->thinkPass}});
    }
    if (!perThread.empty()) {
        QJsonArray threads;
        for (const auto &t : perThread)
            threads.append(QJsonObject{
                {QStringLiteral("completed"), qint64(t.completed)},
                {QStringLiteral("requests_per_s"),
                 r.elapsedMicros > 0 ? double(t.completed) / r.elapsedSeconds() : 0.0},
            });
        root.insert(QStringLiteral("threads"), threads);
    }
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact)) + u'\n';
}

} // namespace servelab::cli
