// SPDX-License-Identifier: Apache-2.0
#include "resultbundle.h"

#include "resultcolumns.h"

#include "client/hdrhistogramlog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace servelab::lab {

namespace {

QString hdr(const client::LatencyHistogram &h)
{
    return QString::fromStdString(client::HdrHistogramLog::encode(h));
}

quint64 count(const QJsonObject &o, const char *key)
{
    return quint64(o.value(QLatin1String(key)).toInteger());
}

} // namespace

QJsonObject ResultBundle::latencyToJson(const client::LatencyHistogram &h)
{
    return QJsonObject{{QStringLiteral("hdr"), hdr(h)},
                       {QStringLiteral("min_us"), qint64(h.min())},
                       {QStringLiteral("max_us"), qint64(h.max())},
                       {QStringLiteral("sum_us"), h.sum()},
                       {QStringLiteral("sum_squares"), h.sumSquares()}};
}

bool ResultBundle::latencyFromJson(const QJsonObject &o, client::LatencyHistogram *h)
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

// A point's scalars are ResultColumns' rows; its errors, latencies, fds left open and samples
// have shapes of their own here.
QJsonObject ResultBundle::pointToJson(const PointResult &p)
{
    const auto &l = p.load;
    QJsonObject errors;
    for (std::size_t k = 0; k < client::errorKindCount; ++k)
        if (l.errors[k])
            errors.insert(QString::fromUtf8(client::errorKindKey(client::ErrorKind(k))),
                          qint64(l.errors[k]));
    QJsonArray clientSamples;
    for (const auto &s : p.clientSamples) {
        QJsonObject o{{QStringLiteral("latency_hdr"), hdr(s.latency)}};
        ResultColumns::toJson(ResultColumns::clientSample(), s, &o);
        clientSamples.append(o);
    }
    QJsonArray serverSamples;
    for (metrics::ProcessSample s : p.serverSamples) {
        s.atMicros -= p.startedAtMicros; // kept from the point's start
        QJsonObject o;
        ResultColumns::toJson(ResultColumns::serverSample(), s, &o);
        serverSamples.append(o);
    }
    QJsonArray tune;
    for (const TuneEvent &e : p.tuneEvents) {
        QJsonObject t{{QStringLiteral("at_us"), qint64(e.atMicros - p.startedAtMicros)},
                      {QStringLiteral("change"), e.change}};
        if (!e.made())
            t.insert(QStringLiteral("error"), e.error);
        tune.append(t);
    }
    QJsonObject o{
        {QStringLiteral("errors"), errors},
        {QStringLiteral("latency"), ResultBundle::latencyToJson(l.latency)},
        {QStringLiteral("fds_left_open"), QJsonArray::fromStringList(p.fdsLeftOpen)},
        {QStringLiteral("client_samples"), clientSamples},
        {QStringLiteral("server_samples"), serverSamples},
    };
    if (!tune.isEmpty())
        o.insert(QStringLiteral("tune"), tune);
    if (p.uncorrected.count() > 0) // a rate point's latency from the actual send
        o.insert(QStringLiteral("uncorrected"), ResultBundle::latencyToJson(p.uncorrected));
    if (l.tlsTimes.count() > 0) // https: the handshakes' latency
        o.insert(QStringLiteral("tls_latency"), ResultBundle::latencyToJson(l.tlsTimes));
    ResultColumns::toJson(ResultColumns::point(), p, &o);
    return o;
}

bool ResultBundle::pointFromJson(const QJsonObject &o, PointResult *p)
{
    ResultColumns::fromJson(ResultColumns::point(), o, p);
    auto &l = p->load;
    const QJsonObject errors = o.value(QStringLiteral("errors")).toObject();
    for (std::size_t k = 0; k < client::errorKindCount; ++k)
        l.errors[k] = count(errors, client::errorKindKey(client::ErrorKind(k)).data());
    if (!ResultBundle::latencyFromJson(o.value(QStringLiteral("latency")).toObject(), &l.latency))
        return false;
    if (const QJsonValue uncorrected = o.value(QStringLiteral("uncorrected"));
        uncorrected.isObject() && !ResultBundle::latencyFromJson(uncorrected.toObject(), &p->uncorrected))
        return false;
    if (const QJsonValue tls = o.value(QStringLiteral("tls_latency"));
        tls.isObject() && !ResultBundle::latencyFromJson(tls.toObject(), &l.tlsTimes))
        return false;
    for (const auto &fd : o.value(QStringLiteral("fds_left_open")).toArray())
        p->fdsLeftOpen << fd.toString();
    for (const auto &value : o.value(QStringLiteral("client_samples")).toArray()) {
        const QJsonObject s = value.toObject();
        client::ClientSample c;
        c.thread = -1;
        ResultColumns::fromJson(ResultColumns::clientSample(), s, &c);
        auto h = client::HdrHistogramLog::decode(
            s.value(QStringLiteral("latency_hdr")).toString().toStdString());
        if (!h)
            return false;
        c.latency = std::move(*h);
        p->clientSamples.push_back(std::move(c));
    }
    for (const auto &value : o.value(QStringLiteral("server_samples")).toArray()) {
        metrics::ProcessSample m; // at_us from the point's start, until fromJson() shifts it
        ResultColumns::fromJson(ResultColumns::serverSample(), value.toObject(), &m);
        p->serverSamples.push_back(m);
    }
    for (const auto &value : o.value(QStringLiteral("tune")).toArray()) {
        const QJsonObject t = value.toObject();
        TuneEvent e; // at_us from the point's start, until fromJson() shifts it
        e.atMicros = t.value(QStringLiteral("at_us")).toInteger();
        e.change = t.value(QStringLiteral("change")).toString();
        e.error = t.value(QStringLiteral("error")).toString();
        p->tuneEvents.push_back(e);
    }
    return true;
}

QByteArray ResultBundle::toJson() const
{
    QJsonArray list;
    for (const auto &p : points)
        list.append(pointToJson(p));
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
        if (!points[i].isObject() || !pointFromJson(points[i].toObject(), &p)) {
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
        for (auto &event : p.tuneEvents)
            event.atMicros += p.startedAtMicros;
        out.points << p;
    }
    *bundle = out;
    return true;
}

bool ResultBundle::readFile(const QString &path, ResultBundle *bundle, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    QString why;
    if (!fromJson(file.readAll(), bundle, &why)) {
        *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    }
    return true;
}

} // namespace servelab::lab
