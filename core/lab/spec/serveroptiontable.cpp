// SPDX-License-Identifier: Apache-2.0
#include "serveroptiontable.h"

#include "optionvalue.h"
#include "server/serveroptions.h"
#include "sizelist.h"
#include "specfield.h"
#include "tls/tlsprotocols.h"

#include <QFileInfo>

#include <algorithm>
#include <iterator>

namespace servelab::lab {

namespace {

using server::ServerOptions;

template<typename T>
bool whole(const QString &text, qint64 min, qint64 max, T *field, QString *error)
{
    qint64 value = 0;
    if (!OptionValue::wholeNumber(text, min, max, &value, error))
        return false;
    *field = static_cast<T>(value);
    return true;
}

template<typename T>
bool bytes(const QString &text, quint64 min, quint64 max, T *field, QString *error)
{
    quint64 value = 0;
    if (!OptionValue::size(text, min, max, &value, error))
        return false;
    *field = static_cast<T>(value);
    return true;
}

QString onOffText(bool on)
{
    return on ? QStringLiteral("on") : QStringLiteral("off");
}

constexpr qint64 hourMs = 3'600'000;

// An enumeration's names, in the order of its values.
template<typename E, std::size_t N>
bool choice(const QString &text, const char *const (&names)[N], E *field, const char *what,
            QString *error)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (text == QLatin1String(names[i])) {
            *field = static_cast<E>(i);
            return true;
        }
    }
    *error = QStringLiteral("wants %1, not '%2'").arg(QLatin1String(what), text);
    return false;
}
constexpr const char *strategyNames[] = {"reserve-fd", "backoff", "none"}; // AcceptStrategy
constexpr const char *handoffNames[] = {"mutex", "lockfree"};              // Handoff

// --tls: off, the self-signed pairs, or two readable files.
bool setTls(ServerOptions *o, const QString &text, QString *error)
{
    if (text == u"off") {
        o->tls.clear();
        return true;
    }
    if (text != u"self-signed" && text != u"self-signed-rsa") {
        const QStringList files = text.split(u',');
        if (files.size() != 2 || files[0].isEmpty() || files[1].isEmpty()) {
            *error = QStringLiteral("wants off, self-signed, self-signed-rsa or CERT.pem,KEY.pem, "
                                    "not '%1'")
                         .arg(text);
            return false;
        }
        for (const QString &file : files) {
            if (!QFileInfo(file).isReadable()) {
                *error = QStringLiteral("names %1, which cannot be read").arg(file);
                return false;
            }
        }
    }
    o->tls = text.toStdString();
    return true;
}

// --tls-versions, --tls-ciphers, --tls-groups: one of the three protocol strings, checked by
// OpenSSL itself; "default" keeps OpenSSL's.
bool setProtocol(ServerOptions *o, std::string ServerOptions::*field, const QString &text,
                 QString *error)
{
    const std::string value = text == u"default" ? std::string() : text.toStdString();
    tls::Protocols protocols{o->tlsVersions, o->tlsCiphers, o->tlsGroups};
    std::string tls::Protocols::*target =
        field == &ServerOptions::tlsVersions  ? &tls::Protocols::versions
        : field == &ServerOptions::tlsCiphers ? &tls::Protocols::ciphers
                                              : &tls::Protocols::groups;
    protocols.*target = value;
    if (const std::string why = protocols.check(); !why.empty()) {
        *error = QStringLiteral("is refused: %1").arg(QString::fromStdString(why));
        return false;
    }
    o->*field = value;
    return true;
}

QString protocolText(const std::string &value)
{
    return value.empty() ? QStringLiteral("default") : QString::fromStdString(value);
}

constexpr const char *tlsFixed = "TLS is set up as the server starts";
constexpr const char *h2Fixed = "a connection's HTTP/2 settings are sent as it opens";

using Row = ServerOptionTable::Row;

// In `serve --help` order. Each row's text() of a default ServerOptions is the default shown.
const Row table[] = {
    {"threads", "n", "Event-loop threads.",
     [](const ServerOptions &o) { return QString::number(o.threads); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, SpecFields::serverThreads.low, SpecFields::serverThreads.high, &o->threads,
                      e);
     }},
    {"backlog", "n", "Listen backlog.",
     [](const ServerOptions &o) { return QString::number(o.backlog); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, 1, 65535, &o->backlog, e);
     },
     "the listen queue is sized once, by listen() as the socket opens"},
    {"buffer", "size", "Buffer of the copy transfer (the seeds also use 81000).",
     [](const ServerOptions &o) { return formatSize(o.bufferSize); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 512, 64 << 20, &o->bufferSize, e);
     }},
    {"sendfile-threshold", "size",
     "Below this size head and body go out in one writev (Tomcat: 48K).",
     [](const ServerOptions &o) { return formatSize(o.sendfileThreshold); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 1, 64 << 20, &o->sendfileThreshold, e);
     }},
    {"chunk", "size", "Most bytes one connection sends per turn (nginx sendfile_max_chunk).",
     [](const ServerOptions &o) { return formatSize(o.sendfileChunk); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 4096, quint64(1) << 31, &o->sendfileChunk, e);
     }},
    {"nodelay", "on|off", "TCP_NODELAY on accepted sockets.",
     [](const ServerOptions &o) { return onOffText(o.tcpNoDelay); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::onOff(t, &o->tcpNoDelay, e);
     },
     "it is set on each socket as it is accepted, so the open connections would keep the old one"},
    {"coalesce", "on|off",
     "Head and body in one segment (MSG_MORE); off with --nodelay off shows the 40 ms Nagle "
     "stall.",
     [](const ServerOptions &o) { return onOffText(o.coalesceHeader); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::onOff(t, &o->coalesceHeader, e);
     }},
    {"nopush", "on|off",
     "sendfile: TCP_CORK from the head to the body's end, so a large body leaves in full "
     "segments (nginx tcp_nopush).",
     [](const ServerOptions &o) { return onOffText(o.tcpNoPush); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::onOff(t, &o->tcpNoPush, e);
     },
     "a response corked under one setting must be uncorked under the same"},
    {"defer-accept", "on|off",
     "TCP_DEFER_ACCEPT: accept a connection once its request has come (nginx listen ... "
     "deferred).",
     [](const ServerOptions &o) { return onOffText(o.deferAccept); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::onOff(t, &o->deferAccept, e);
     },
     "it is set once on the listening socket, as it opens"},
    {"keepalive-timeout", "time", "Idle time allowed between requests.",
     [](const ServerOptions &o) { return OptionValue::durationText(o.keepAliveTimeoutMs); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::duration(t, hourMs, &o->keepAliveTimeoutMs, e);
     }},
    {"header-timeout", "time", "Time for a whole request head, from its first byte (slowloris).",
     [](const ServerOptions &o) { return OptionValue::durationText(o.headerTimeoutMs); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::duration(t, hourMs, &o->headerTimeoutMs, e);
     }},
    {"send-timeout", "time", "Time a response may make no progress.",
     [](const ServerOptions &o) { return OptionValue::durationText(o.sendTimeoutMs); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::duration(t, hourMs, &o->sendTimeoutMs, e);
     }},
    {"max-requests", "n", "Requests per connection before it is closed; 0: no limit.",
     [](const ServerOptions &o) { return QString::number(o.maxRequestsPerConnection); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, 0, 1'000'000'000, &o->maxRequestsPerConnection, e);
     }},
    {"max-body", "size", "Largest request body accepted (then 413).",
     [](const ServerOptions &o) { return formatSize(o.maxBodyBytes); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 1, quint64(1) << 40, &o->maxBodyBytes, e);
     }},
    {"max-connections", "n|auto|unlimited",
     "Open connections allowed; beyond, new ones are closed at once. auto: half the free fds "
     "(each may also hold a file); unlimited: let accept() hit EMFILE.",
     [](const ServerOptions &o) {
         return o.maxConnections == 0    ? QStringLiteral("auto")
                : o.maxConnections == -1 ? QStringLiteral("unlimited")
                                         : QString::number(o.maxConnections);
     },
     [](ServerOptions *o, const QString &t, QString *e) {
         if (t == u"auto" || t == u"unlimited") {
             o->maxConnections = t == u"auto" ? 0 : -1;
             return true;
         }
         if (whole(t, 1, 10'000'000, &o->maxConnections, e))
             return true;
         *e = QStringLiteral("wants auto, unlimited or a whole number from 1 to 10000000, not "
                             "'%1'")
                  .arg(t);
         return false;
     }},
    {"accept-strategy", "strategy",
     "On EMFILE: reserve-fd (accept-and-close with a spare fd, pause), backoff (pause 100 ms) "
     "or none (retry at once, as the seed's flood).",
     [](const ServerOptions &o) {
         return QString::fromLatin1(strategyNames[int(o.acceptStrategy)]);
     },
     [](ServerOptions *o, const QString &t, QString *e) {
         return choice(t, strategyNames, &o->acceptStrategy, "reserve-fd, backoff or none", e);
     },
     "each thread chooses its accept guard as it starts"},
    {"max-downloads", "n",
     "multiplex: downloads written at once; the rest wait in a queue (grizzly-sendfile "
     "--concur-download-max).",
     [](const ServerOptions &o) { return QString::number(o.maxDownloads); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, 1, 1'000'000, &o->maxDownloads, e);
     }},
    {"handoff", "queue",
     "poller: the queue from the watcher to the pool: mutex (a deque and a condition variable) "
     "or lockfree (moodycamel's queue).",
     [](const ServerOptions &o) { return QString::fromLatin1(handoffNames[int(o.handoff)]); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return choice(t, handoffNames, &o->handoff, "mutex or lockfree", e);
     },
     "the queue between the watcher and the pool is built as the server starts"},
    {"open-file-cache", "entries",
     "Files kept open (nginx open_file_cache): per thread for epoll and uring, per server for "
     "the others; 0: open each request's file anew.",
     [](const ServerOptions &o) { return QString::number(o.openFileCacheEntries); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, 0, 1'000'000, &o->openFileCacheEntries, e);
     }},
    {"open-file-valid", "time", "How long a cached file is trusted.",
     [](const ServerOptions &o) { return OptionValue::durationText(o.openFileCacheValidMs); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::duration(t, hourMs, &o->openFileCacheValidMs, e);
     }},
    {"tls", "off|self-signed|self-signed-rsa|CERT,KEY",
     "Serve https: a self-signed ECDSA P-256 or RSA-2048 pair for localhost and 127.0.0.1, made "
     "once into ~/.cache/servelab/tls, or your PEM certificate and key. Over sendfile it takes "
     "kernel TLS (SSL_sendfile), and refuses to start where the kernel has none.",
     [](const ServerOptions &o) {
         return o.tls.empty() ? QStringLiteral("off") : QString::fromStdString(o.tls);
     },
     setTls, tlsFixed},
    {"tls-versions", "versions", "https: the TLS versions taken, 1.2, 1.3 or 1.2,1.3.",
     [](const ServerOptions &o) { return protocolText(o.tlsVersions); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return setProtocol(o, &ServerOptions::tlsVersions, t, e);
     },
     tlsFixed},
    {"tls-ciphers", "list",
     "https: OpenSSL's cipher names, TLS 1.2 ciphers and TLS_ 1.3 suites in one list; default: "
     "OpenSSL's.",
     [](const ServerOptions &o) { return protocolText(o.tlsCiphers); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return setProtocol(o, &ServerOptions::tlsCiphers, t, e);
     },
     tlsFixed},
    {"tls-groups", "list", "https: key-exchange groups, as X25519:P-256; default: OpenSSL's.",
     [](const ServerOptions &o) { return protocolText(o.tlsGroups); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return setProtocol(o, &ServerOptions::tlsGroups, t, e);
     },
     tlsFixed},
    {"http2", "on|off",
     "HTTP/2 beside HTTP/1.1: h2c for a client that starts with the preface (prior knowledge, "
     "as h2load and curl --http2-prior-knowledge), h2 over https when ALPN chooses it.",
     [](const ServerOptions &o) { return onOffText(o.http2); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return OptionValue::onOff(t, &o->http2, e);
     },
     "ALPN's list is set as the server starts"},
    {"h2-max-streams", "n",
     "HTTP/2: streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS).",
     [](const ServerOptions &o) { return QString::number(o.h2MaxStreams); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return whole(t, 1, 1'000'000, &o->h2MaxStreams, e);
     },
     h2Fixed},
    {"h2-window", "size",
     "HTTP/2: the flow-control window for what a client sends on each stream "
     "(SETTINGS_INITIAL_WINDOW_SIZE).",
     [](const ServerOptions &o) { return formatSize(std::size_t(o.h2Window)); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 1, 0x7fffffff, &o->h2Window, e);
     },
     h2Fixed},
    {"h2-max-frame", "size",
     "HTTP/2: the largest frame a client may send (SETTINGS_MAX_FRAME_SIZE, 16K to 16M-1).",
     [](const ServerOptions &o) { return formatSize(std::size_t(o.h2MaxFrame)); },
     [](ServerOptions *o, const QString &t, QString *e) {
         return bytes(t, 16384, 16777215, &o->h2MaxFrame, e);
     },
     h2Fixed},
};

} // namespace

std::span<const ServerOptionTable::Row> ServerOptionTable::rows()
{
    return table;
}

const ServerOptionTable::Row *ServerOptionTable::find(QStringView name)
{
    const auto row = std::find_if(std::begin(table), std::end(table),
                                  [&](const Row &r) { return name == QLatin1String(r.name); });
    return row == std::end(table) ? nullptr : row;
}

bool ServerOptionTable::set(ServerOptions *options, QStringView name, const QString &text,
                            QString *error)
{
    const Row *row = find(name);
    if (!row) {
        *error = QStringLiteral("--%1 is not a server option (servelab-cli serve --help lists "
                                "them)")
                     .arg(name);
        return false;
    }
    QString problem;
    if (row->set(options, text, &problem))
        return true;
    *error = QStringLiteral("--%1 %2").arg(name, problem);
    return false;
}

bool ServerOptionTable::check(const ServerOptions &options, QString *error)
{
    if (options.handoff == server::Handoff::LockFree && !options.mode.starts_with("poller")) {
        *error = QStringLiteral("--handoff lockfree applies to the poller model, not '%1'")
                     .arg(QString::fromStdString(options.mode));
        return false;
    }
    if (options.http2 && options.mode.starts_with("qt")) {
        *error = QStringLiteral("--http2 is not spoken by the qt model: its QTcpSocket connection "
                                "is a state machine of its own (qtconnection.cpp); serve h2 "
                                "from epoll, poller, blocking or uring");
        return false;
    }
    if (options.http2 && options.mode.starts_with("multiplex")) {
        *error = QStringLiteral("--http2 is not spoken by the multiplex model: its writers take "
                                "one download per connection, and an HTTP/2 connection carries "
                                "many streams; serve h2 from epoll, poller, blocking or uring");
        return false;
    }
    return true;
}

bool ServerOptionTable::apply(ServerOptions *options, const QStringList &arguments, QString *error)
{
    for (qsizetype i = 0; i < arguments.size(); i += 2) {
        const QString &flag = arguments[i];
        if (!flag.startsWith(QStringLiteral("--")) || i + 1 == arguments.size()) {
            *error = QStringLiteral("'%1' is not --name value").arg(flag);
            return false;
        }
        if (!set(options, QStringView(flag).mid(2), arguments[i + 1], error))
            return false;
    }
    return check(*options, error);
}

} // namespace servelab::lab
