// SPDX-License-Identifier: Apache-2.0
#include "resultbundle.h"

#include "client/hdrhistogramlog.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace servelab::lab {

namespace {

QString hdr(const client::LatencyHistogram &h)
{
    return QString::fromStdString(client::HdrHistogramLog::encode(h));
}

QJsonObject latencyJson(const client::LatencyHistogram &h)
{
    return QJsonObject{{QStringLiteral("hdr"), hdr(h)},
                       {QStringLiteral("min_us"), qint64(h.min())},
                       {QStringLiteral("max_us"), qint64(h.max())},
                       {QStringLiteral("sum_us"), h.sum()},
                       {QStringLiteral("sum_squares"), h.sumSquares()}};
}

bool readLatency(const QJsonObject &o, client::LatencyHistogram *h)
{
    auto decoded =
        client::HdrHistogramLog::decode(o.value(QStringLiteral("hdr")).toString().toStdString());
    if (!decoded)
        return false;
    *h = std::move(*decoded);
    if (h->count() > 0)
        h->restoreMoments(o.value(QStringLiteral("min_us")).toInteger(),
                          o.value(QStringLiteral("max_us")).toInteger(),
                          o.value(QStringLiteral("sum_us")).toDouble(),
                          o.value(QStringLiteral("sum_squares")).toDouble());
    return true;
}

quint64 count(const QJsonObject &o, const char *key)
{
    return quint64(o.value(QLatin1String(key)).toInteger());
}

QJsonObject pointJson(const PointResult &p)
{
    const auto &l = p.load;
    QJsonObject errors;
    for (std::size_t k = 0; k < client::errorKindCount; ++k)
        if (l.errors[k])
            errors.insert(QString::fromUtf8(client::errorKindKey(client::ErrorKind(k))),
                          qint64(l.errors[k]));
    QJsonArray clientSamples;
    for (const auto &s : p.clientSamples)
        clientSamples.append(QJsonObject{{QStringLiteral("end_us"), qint64(s.endMicros)},
                                         {QStringLiteral("interval_us"), qint64(s.intervalMicros)},
                                         {QStringLiteral("completed"), qint64(s.completed)},
                                         {QStringLiteral("ok"), qint64(s.ok)},
                                         {QStringLiteral("failed"), qint64(s.failed)},
                                         {QStringLiteral("bytes_read"), qint64(s.bytesRead)},
                                         {QStringLiteral("open"), s.openConnections},
                                         {QStringLiteral("latency_hdr"), hdr(s.latency)}});
    QJsonArray serverSamples;
    for (const auto &s : p.serverSamples)
        serverSamples.append(
            QJsonObject{{QStringLiteral("at_us"), qint64(s.atMicros - p.startedAtMicros)},
                        {QStringLiteral("alive"), s.alive},
                        {QStringLiteral("total"), s.total},
                        {QStringLiteral("by_type"), s.byType},
                        {QStringLiteral("sockets"), s.sockets},
                        {QStringLiteral("files"), s.files},
                        {QStringLiteral("pipes"), s.pipes},
                        {QStringLiteral("anon_inodes"), s.anonInodes},
                        {QStringLiteral("other"), s.other},
                        {QStringLiteral("fd_limit"), s.fdLimit},
                        {QStringLiteral("threads"), s.threads},
                        {QStringLiteral("rss_bytes"), qint64(s.rssBytes)},
                        {QStringLiteral("user_s"), s.userSeconds},
                        {QStringLiteral("system_s"), s.systemSeconds}});
    return QJsonObject{
        {QStringLiteral("index"), p.index},
        {QStringLiteral("repetition"), p.repetition},
        {QStringLiteral("target"), p.target},
        {QStringLiteral("size_bytes"), qint64(p.sizeBytes)},
        {QStringLiteral("dnf"), p.dnf},
        {QStringLiteral("reason"), p.reason},
        {QStringLiteral("concurrency"), l.concurrency},
        {QStringLiteral("completed"), qint64(l.completed)},
        {QStringLiteral("ok"), qint64(l.ok)},
        {QStringLiteral("errors"), errors},
        {QStringLiteral("unfinished"), qint64(l.unfinished)},
        {QStringLiteral("connects"), qint64(l.connects)},
        {QStringLiteral("bytes_read"), qint64(l.bytesRead)},
        {QStringLiteral("body_bytes"), qint64(l.bodyBytes)},
        {QStringLiteral("elapsed_us"), qint64(l.elapsedMicros)},
        {QStringLiteral("kib_per_s"), p.kibPerSecond()},
        {QStringLiteral("latency"), latencyJson(l.latency)},
        {QStringLiteral("fds_left_open"), QJsonArray::fromStringList(p.fdsLeftOpen)},
        {QStringLiteral("server_counted"), p.serverCounted},
        {QStringLiteral("server_requests"), qint64(p.serverRequests)},
        {QStringLiteral("server_emfile"), qint64(p.serverEmfile)},
        {QStringLiteral("handoffs"), qint64(p.handoffs)},
        {QStringLiteral("handoff_wait_us"), qint64(p.handoffWaitMicros)},
        {QStringLiteral("client_samples"), clientSamples},
        {QStringLiteral("server_samples"), serverSamples},
        // On the machine's monotonic clock: where the point sits in the run's timelines.
        {QStringLiteral("started_at_us"), qint64(p.startedAtMicros)},
    };
}

bool readPoint(const QJsonObject &o, PointResult *p)
{
    p->index = o.value(QStringLiteral("index")).toInt();
    p->repetition = o.value(QStringLiteral("repetition")).toInt();
    p->target = o.value(QStringLiteral("target")).toString();
    p->sizeBytes = count(o, "size_bytes");
    p->dnf = o.value(QStringLiteral("dnf")).toBool();
    p->reason = o.value(QStringLiteral("reason")).toString();
    auto &l = p->load;
    l.concurrency = o.value(QStringLiteral("concurrency")).toInt(1);
    l.completed = count(o, "completed");
    l.ok = count(o, "ok");
    const QJsonObject errors = o.value(QStringLiteral("errors")).toObject();
    for (std::size_t k = 0; k < client::errorKindCount; ++k)
        l.errors[k] = count(errors, client::errorKindKey(client::ErrorKind(k)).data());
    l.unfinished = count(o, "unfinished");
    l.connects = count(o, "connects");
    l.bytesRead = count(o, "bytes_read");
    l.bodyBytes = count(o, "body_bytes");
    l.elapsedMicros = o.value(QStringLiteral("elapsed_us")).toInteger();
    if (!readLatency(o.value(QStringLiteral("latency")).toObject(), &l.latency))
        return false;
    for (const auto &fd : o.value(QStringLiteral("fds_left_open")).toArray())
        p->fdsLeftOpen << fd.toString();
    p->serverCounted = o.value(QStringLiteral("server_counted")).toBool();
    p->serverRequests = count(o, "server_requests");
    p->serverEmfile = count(o, "server_emfile");
    p->handoffs = count(o, "handoffs");
    p->handoffWaitMicros = count(o, "handoff_wait_us");
    for (const auto &value : o.value(QStringLiteral("client_samples")).toArray()) {
        const QJsonObject s = value.toObject();
        client::ClientSample c;
        c.thread = -1;
        c.endMicros = s.value(QStringLiteral("end_us")).toInteger();
        c.intervalMicros = s.value(QStringLiteral("interval_us")).toInteger();
        c.completed = count(s, "completed");
        c.ok = count(s, "ok");
        c.failed = count(s, "failed");
        c.bytesRead = count(s, "bytes_read");
        c.openConnections = s.value(QStringLiteral("open")).toInt();
        auto h = client::HdrHistogramLog::decode(
            s.value(QStringLiteral("latency_hdr")).toString().toStdString());
        if (!h)
            return false;
        c.latency = std::move(*h);
        p->clientSamples.push_back(std::move(c));
    }
    for (const auto &value : o.value(QStringLiteral("server_samples")).toArray()) {
        const QJsonObject s = value.toObject();
        metrics::ProcessSample m;
        m.atMicros = s.value(QStringLiteral("at_us")).toInteger(); // from the point's start
        m.alive = s.value(QStringLiteral("alive")).toBool();
        m.total = s.value(QStringLiteral("total")).toInt();
        m.byType = s.value(QStringLiteral("by_type")).toBool();
        m.sockets = s.value(QStringLiteral("sockets")).toInt();
        m.files = s.value(QStringLiteral("files")).toInt();
        m.pipes = s.value(QStringLiteral("pipes")).toInt();
        m.anonInodes = s.value(QStringLiteral("anon_inodes")).toInt();
        m.other = s.value(QStringLiteral("other")).toInt();
        m.fdLimit = s.value(QStringLiteral("fd_limit")).toInt(-1);
        m.threads = s.value(QStringLiteral("threads")).toInt();
        m.rssBytes = s.value(QStringLiteral("rss_bytes")).toInteger();
        m.userSeconds = s.value(QStringLiteral("user_s")).toDouble();
        m.systemSeconds = s.value(QStringLiteral("system_s")).toDouble();
        p->serverSamples.push_back(m);
    }
    return true;
}

} // namespace

QByteArray ResultBundle::toJson() const
{
    QJsonArray list;
    for (const auto &p : points)
        list.append(pointJson(p));
    QJsonParseError parsed{};
    const QJsonDocument specDocument = QJsonDocument::fromJson(spec, &parsed);
    return QJsonDocument(QJsonObject{{QStringLiteral("servelab_bundle"), version},
                                     {QStringLiteral("name"), name},
                                     {QStringLiteral("spec"), specDocument.object()},
                                     {QStringLiteral("machine"), machine},
                                     {QStringLiteral("points"), list}})
        .toJson(QJsonDocument::Compact);
}

bool ResultBundle::fromJson(const QByteArray &json, ResultBundle *bundle, QString *error)
{
    QJsonParseError parsed{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &parsed);
    if (parsed.error != QJsonParseError::NoError || !document.isObject()) {
        *error = QStringLiteral("not a ServeLab bundle: %1").arg(parsed.errorString());
        return false;
    }
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("servelab_bundle")).toInt() != version) {
        *error = QStringLiteral("not a ServeLab bundle of version %1 (\"servelab_bundle\" is %2)")
                     .arg(version)
                     .arg(root.value(QStringLiteral("servelab_bundle")).toVariant().toString());
        return false;
    }
    ResultBundle out;
    out.name = root.value(QStringLiteral("name")).toString();
    out.spec = QJsonDocument(root.value(QStringLiteral("spec")).toObject())
                   .toJson(QJsonDocument::Indented);
    out.machine = root.value(QStringLiteral("machine")).toObject();
    const QJsonArray points = root.value(QStringLiteral("points")).toArray();
    for (qsizetype i = 0; i < points.size(); ++i) {
        PointResult p;
        if (!points[i].isObject() || !readPoint(points[i].toObject(), &p)) {
            *error = QStringLiteral("point %1 of the bundle cannot be read (a damaged histogram?)")
                         .arg(i);
            return false;
        }
        // Samples are kept from the point's start. A bundle written before started_at_us was
        // kept gets its points laid one after another, 0.1 s apart, so that the timelines do
        // not fold back on themselves.
        const QJsonValue started = points[i].toObject().value(QStringLiteral("started_at_us"));
        if (started.isDouble()) {
            p.startedAtMicros = started.toInteger();
        } else if (!out.points.isEmpty()) {
            const PointResult &before = out.points.last();
            std::int64_t end = before.startedAtMicros + before.load.elapsedMicros;
            if (!before.serverSamples.empty())
                end = std::max(end, before.serverSamples.back().atMicros);
            p.startedAtMicros = end + 100'000;
        }
        for (auto &sample : p.serverSamples)
            sample.atMicros += p.startedAtMicros;
        out.points << p;
    }
    *bundle = out;
    return true;
}

} // namespace servelab::lab
