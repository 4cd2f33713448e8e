// SPDX-License-Identifier: Apache-2.0
#include "protocolratio.h"

#include "pointcost.h"

#include <QMap>

#include <tuple>

namespace servelab::lab {

namespace {

struct Sums
{
    double kib = 0;
    int kibCount = 0;
    double cpu = 0;
    int cpuCount = 0;

    void add(const PointResult &p)
    {
        kib += p.load.kibPerSecond();
        ++kibCount;
        if (const double c = PointCost::serverCpu().of(p); c >= 0) {
            cpu += c;
            ++cpuCount;
        }
    }
};

// Where a point goes: its target's label without the transport word the experiment added
// ("epoll+sendfile h2c"), whether it is over TLS, and whether it is the HTTP/2 side. False for
// a point whose label names no transport (a lone transport needs no word: nothing to pair).
bool sideOf(const PointResult &p, QString *base, bool *tls, bool *http2)
{
    const qsizetype space = p.target.lastIndexOf(u' ');
    if (space < 0)
        return false;
    const QString word = p.target.mid(space + 1);
    *base = p.target.left(space);
    *http2 = word == u"h2c" || word == u"h2";
    if (*http2)
        *tls = word == u"h2";
    else if (word == u"http")
        *tls = false;
    else if (word == u"https" || word == u"https:keepalive")
        *tls = true; // h2 keeps its connections: its pair is https with keep-alive
    else
        return false;
    return p.protocol == (*http2 ? word : QStringLiteral("http/1.1"));
}

} // namespace

QList<ProtocolRatio> protocolRatios(const QList<PointResult> &points)
{
    using Key = std::tuple<QString, bool, quint64>; // base, tls, size
    QMap<Key, Sums> h1;
    QMap<Key, Sums> h2;
    for (const PointResult &p : points) {
        QString base;
        bool tls = false;
        bool http2 = false;
        if (p.dnf || !sideOf(p, &base, &tls, &http2))
            continue;
        (http2 ? h2 : h1)[{base, tls, p.sizeBytes}].add(p);
    }
    QList<ProtocolRatio> out;
    for (auto it = h2.begin(); it != h2.end(); ++it) {
        const auto one = h1.constFind(it.key());
        if (one == h1.constEnd())
            continue;
        const auto &[base, tls, size] = it.key();
        ProtocolRatio r;
        r.target = base;
        r.pair = tls ? QStringLiteral("h2 ÷ https") : QStringLiteral("h2c ÷ http");
        r.label = base + (tls ? QStringLiteral(" h2") : QStringLiteral(" h2c"));
        r.sizeBytes = size;
        const Sums &a = it.value();
        const Sums &b = one.value();
        if (a.kibCount && b.kibCount && b.kib > 0)
            r.throughput = (a.kib / a.kibCount) / (b.kib / b.kibCount);
        if (a.cpuCount && b.cpuCount && b.cpu > 0)
            r.serverCpu = (a.cpu / a.cpuCount) / (b.cpu / b.cpuCount);
        out << r;
    }
    return out;
}

} // namespace servelab::lab
