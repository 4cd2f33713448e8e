// SPDX-License-Identifier: Apache-2.0
#include "clientkey.h"

#include "client/thinktime.h"
#include "specfield.h"
#include "sweepspec.h"

#include <cmath>

namespace servelab::lab {

namespace {

namespace F = SpecFields;
using Kind = ClientKey::Kind;

QJsonValue seconds(int ms)
{
    return QJsonValue(qint64(ms / 1000));
}

int ms(const QJsonValue &v)
{
    return int(v.toInteger() * 1000);
}

QString thinkProblem(const QString &text)
{
    client::ThinkTime think;
    std::string why;
    return client::ThinkTime::parse(text.toStdString(), &think, &why) ? QString()
                                                                      : QString::fromStdString(why);
}

// clang-format off
const ClientKey keys[] = {
    {"requests", Kind::Number, &F::requests, nullptr, "Requests per point: ab -n",
     [](const SweepSpec &s) { return QJsonValue(qint64(s.requests)); },
     [](SweepSpec *s, const QJsonValue &v) { s->requests = quint64(v.toInteger()); }, nullptr},
    {"keep_alive", Kind::Flag, nullptr, "Keep connections alive", "ab -k; faban's users too",
     [](const SweepSpec &s) { return QJsonValue(s.keepAlive); },
     [](SweepSpec *s, const QJsonValue &v) { s->keepAlive = v.toBool(); }, nullptr},
    {"seconds", Kind::Number, &F::seconds, nullptr, "Seconds per point: wrk -d",
     [](const SweepSpec &s) { return seconds(s.durationMs); },
     [](SweepSpec *s, const QJsonValue &v) { s->durationMs = ms(v); }, nullptr},
    {"threads", Kind::Number, &F::clientThreads, nullptr, "Client threads: wrk -t",
     [](const SweepSpec &s) { return QJsonValue(s.clientThreads); },
     [](SweepSpec *s, const QJsonValue &v) { s->clientThreads = int(v.toInteger()); }, nullptr},
    {"rate", Kind::Number, &F::rate, nullptr,
     "Requests per second offered on a fixed schedule, whatever the server does: wrk2 -R",
     [](const SweepSpec &s) { return QJsonValue(s.ratePerSecond); },
     [](SweepSpec *s, const QJsonValue &v) { s->ratePerSecond = v.toInteger(); }, nullptr},
    {"ramp_up_seconds", Kind::Number, &F::rampUp, nullptr,
     "Users start and warm the server; not counted (faban -r UP/steady/down)",
     [](const SweepSpec &s) { return seconds(s.rampUpMs); },
     [](SweepSpec *s, const QJsonValue &v) { s->rampUpMs = ms(v); }, nullptr},
    {"steady_seconds", Kind::Number, &F::steady, nullptr,
     "The only part that counts (faban -r up/STEADY/down)",
     [](const SweepSpec &s) { return seconds(s.steadyMs); },
     [](SweepSpec *s, const QJsonValue &v) { s->steadyMs = ms(v); }, nullptr},
    {"ramp_down_seconds", Kind::Number, &F::rampDown, nullptr,
     "The steady state ends under load; not counted (faban -r up/steady/DOWN)",
     [](const SweepSpec &s) { return seconds(s.rampDownMs); },
     [](SweepSpec *s, const QJsonValue &v) { s->rampDownMs = ms(v); }, nullptr},
    {"think", Kind::Text, nullptr, "Think time",
     "Each user's wait after a response: none, fixed:500ms, uniform:100ms-900ms, negexp:500ms, "
     "or between starts: cycle:1s, cycle-negexp:1s (faban)",
     [](const SweepSpec &s) { return QJsonValue(s.think); },
     [](SweepSpec *s, const QJsonValue &v) { s->think = v.toString(); }, thinkProblem},
    // Seed 002: "connections being closed sometimes, and having non zero keepalive times".
    {"close_after", Kind::Number, &F::closeAfter, nullptr,
     "Close a kept-alive connection after this many requests (0: never): --close-after",
     [](const SweepSpec &s) { return QJsonValue(s.closeAfter); },
     [](SweepSpec *s, const QJsonValue &v) { s->closeAfter = v.toInteger(); }, nullptr},
    {"streams", Kind::Number, &F::streams, nullptr,
     "HTTP/2 (transport h2c, h2): requests in flight per connection, the concurrency's requests "
     "over concurrency / streams connections: h2load -m",
     [](const SweepSpec &s) { return QJsonValue(s.streams); },
     [](SweepSpec *s, const QJsonValue &v) { s->streams = int(v.toInteger()); }, nullptr},
    {"close_probability", Kind::Real, nullptr, "Close probability",
     "Close a kept-alive connection after each response with this probability: "
     "--close-probability",
     [](const SweepSpec &s) { return QJsonValue(s.closeProbability); },
     [](SweepSpec *s, const QJsonValue &v) { s->closeProbability = v.toDouble(); }, nullptr, 0, 1},
    {"keepalive_think", Kind::Text, nullptr, "Keep-alive think time",
     "A wait before each next request on a kept-alive connection, not counted in latency "
     "(none, fixed:50ms, negexp:20ms, …): --keepalive-think",
     [](const SweepSpec &s) { return QJsonValue(s.keepAliveThink); },
     [](SweepSpec *s, const QJsonValue &v) { s->keepAliveThink = v.toString(); }, thinkProblem},
    {"http1_0", Kind::Flag, nullptr, "HTTP/1.0 requests, as ab sends",
     "ab's HTTP/1.0 requests (with keep-alive: Connection: keep-alive): --http1.0",
     [](const SweepSpec &s) { return QJsonValue(s.http10); },
     [](SweepSpec *s, const QJsonValue &v) { s->http10 = v.toBool(); }, nullptr},
    {"ab_reads", Kind::Flag, nullptr, "Read as ab does",
     "ab's system calls, call for call (8 KiB reads, one per wake-up): --ab-reads",
     [](const SweepSpec &s) { return QJsonValue(s.abReads); },
     [](SweepSpec *s, const QJsonValue &v) { s->abReads = v.toBool(); }, nullptr},
};
// clang-format on

} // namespace

QString ClientKey::label() const
{
    return field ? field->name(FieldNaming::Label) : QString::fromLatin1(title);
}

QString ClientKey::problem(const QJsonValue &value) const
{
    switch (kind) {
    case Kind::Number: {
        const double d = value.toDouble(std::nan(""));
        if (!value.isDouble() || !std::isfinite(d) || std::trunc(d) != d ||
            d < double(field->low) || d > double(field->high))
            return field->wants();
        return {};
    }
    case Kind::Real:
        if (!value.isDouble() || !(value.toDouble() >= low && value.toDouble() <= high))
            return QStringLiteral("wants a number from %1 to %2").arg(low).arg(high);
        return {};
    case Kind::Flag: return value.isBool() ? QString() : QStringLiteral("wants true or false");
    case Kind::Text:
        if (!value.isString() || value.toString().isEmpty())
            return QStringLiteral("wants a non-empty string");
        return check ? check(value.toString()) : QString();
    }
    return {};
}

std::span<const ClientKey> ClientKey::all()
{
    return keys;
}

const ClientKey *ClientKey::find(QAnyStringView key)
{
    for (const ClientKey &k : keys)
        if (QAnyStringView::equal(key, QLatin1String(k.key)))
            return &k;
    return nullptr;
}

} // namespace servelab::lab
