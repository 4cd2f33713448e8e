// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"
#include "loadmodelchoice.h"
#include "loadreport.h"

#include "client/clientsample.h"
#include "client/closedclient.h"
#include "client/durationclient.h"
#include "client/rampclient.h"
#include "client/rateclient.h"
#include "lab/results/resultexport.h"
#include "lab/spec/clientrules.h"
#include "lab/spec/sizelist.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTextStream>

#include <QUrl>
#include <cmath>
#include <cstring>

namespace servelab::cli {

namespace {

bool optionsFromUrl(const QString &text, client::ClientOptions *options, QString *error)
{
    const QUrl url(text, QUrl::StrictMode);
    const bool https = url.scheme() == u"https";
    if (!url.isValid() || (url.scheme() != u"http" && !https) || url.host().isEmpty()) {
        *error = QStringLiteral("'%1' is not an http:// or https:// URL with a host").arg(text);
        return false;
    }
    options->host = url.host().toStdString();
    options->port = static_cast<std::uint16_t>(url.port(https ? 443 : 80));
    options->tls.enabled = https;
    QString path = url.path(QUrl::FullyEncoded);
    if (path.isEmpty())
        path = QStringLiteral("/");
    if (url.hasQuery())
        path += u'?' + url.query(QUrl::FullyEncoded);
    options->path = path.toStdString();
    return true;
}

// The https flags: the handshake policy (keepalive with -k or a model that keeps connections,
// else new, as ab without -k), the protocols and the certificate check. Refused for http://.
bool tlsFromFlags(const QCommandLineParser &p, bool keepsAlive, client::ClientOptions *options,
                  QString *error)
{
    static const char *const flags[] = {"handshake",    "cacert",      "insecure",  "sni",
                                        "tls-versions", "tls-ciphers", "tls-groups"};
    client::TlsClientOptions &tls = options->tls;
    if (!tls.enabled) {
        for (const char *flag : flags) {
            if (p.isSet(QLatin1String(flag))) {
                *error = QStringLiteral("--%1 applies to https:// URLs").arg(QLatin1String(flag));
                return false;
            }
        }
        return true;
    }
    tls.policy = keepsAlive ? client::HandshakePolicy::KeepAlive : client::HandshakePolicy::New;
    if (p.isSet(QStringLiteral("handshake"))) {
        const QString name = p.value(QStringLiteral("handshake"));
        const auto policy = client::handshakePolicyFromName(name.toStdString());
        if (!policy) {
            *error =
                QStringLiteral("--handshake wants keepalive, new or resume, not '%1'").arg(name);
            return false;
        }
        if (*policy != client::HandshakePolicy::KeepAlive && p.isSet(QStringLiteral("k"))) {
            *error =
                QStringLiteral("--handshake %1 makes a connection per request: drop -k").arg(name);
            return false;
        }
        tls.policy = *policy;
    }
    if (tls.policy == client::HandshakePolicy::KeepAlive)
        options->keepAlive = true;
    tls.caFile = p.value(QStringLiteral("cacert")).toStdString();
    if (!tls.caFile.empty() && !QFileInfo(p.value(QStringLiteral("cacert"))).isReadable()) {
        *error = QStringLiteral("--cacert names %1, which cannot be read")
                     .arg(p.value(QStringLiteral("cacert")));
        return false;
    }
    tls.insecure = p.isSet(QStringLiteral("insecure"));
    if (tls.insecure && !tls.caFile.empty()) {
        *error = QStringLiteral("--insecure skips the check that --cacert is for: give one");
        return false;
    }
    tls.serverName = p.value(QStringLiteral("sni")).toStdString();
    tls.protocols.versions = p.value(QStringLiteral("tls-versions")).toStdString();
    tls.protocols.ciphers = p.value(QStringLiteral("tls-ciphers")).toStdString();
    tls.protocols.groups = p.value(QStringLiteral("tls-groups")).toStdString();
    if (const std::string why = tls.protocols.check(); !why.empty()) {
        *error = QString::fromStdString(why);
        return false;
    }
    return true;
}

// --http2, -m and --h2-window; what HTTP/2 has no use for is refused with the reason.
bool http2FromFlags(const QCommandLineParser &p, client::ClientOptions *options, QString *error)
{
    options->http2 = p.isSet(QStringLiteral("http2"));
    if (!options->http2) {
        for (const char *flag : {"m", "h2-window"}) {
            if (p.isSet(QLatin1String(flag))) {
                *error = QStringLiteral("-%1%2 applies with --http2")
                             .arg(std::strlen(flag) > 1 ? QStringLiteral("-") : QString(),
                                  QLatin1String(flag));
                return false;
            }
        }
        return true;
    }
    const char *h1Only = options->http10 ? "http1.0" : options->abReads ? "ab-reads" : nullptr;
    if (h1Only) {
        *error = QStringLiteral("--%1 is HTTP/1's; drop it or --http2").arg(QLatin1String(h1Only));
        return false;
    }
    if (options->tls.enabled && options->tls.policy != client::HandshakePolicy::KeepAlive) {
        *error = QStringLiteral("--http2 keeps its connections: --handshake %1 does not apply")
                     .arg(QString::fromLatin1(client::handshakePolicyName(options->tls.policy)));
        return false;
    }
    bool ok = false;
    const int streams = p.value(QStringLiteral("m")).toInt(&ok);
    if (!ok || streams < 1 || streams > 1000) {
        *error = QStringLiteral("-m wants streams per connection from 1 to 1000, not '%1'")
                     .arg(p.value(QStringLiteral("m")));
        return false;
    }
    options->streams = streams;
    options->keepAlive = true;
    if (p.isSet(QStringLiteral("h2-window"))) {
        quint64 window = 0;
        QString why;
        if (!lab::parseSize(p.value(QStringLiteral("h2-window")), &window, &why) ||
            window < 65535 || window > (1u << 30) - 1) {
            *error = QStringLiteral("--h2-window wants a size from 65535 to 1073741823, not '%1'")
                         .arg(p.value(QStringLiteral("h2-window")));
            return false;
        }
        options->h2Window = static_cast<std::uint32_t>(window);
    }
    return true;
}

} // namespace

int loadCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("load"),
        QStringLiteral("Loads a URL and prints the model's report: closed (ab: -n, -c, -k, -t), "
                       "duration (wrk: -d, -c connections over --threads, always kept alive) or "
                       "rate (wrk2: -R requests/s offered for -d seconds) or ramp (faban fhb: -c "
                       "users, --ramp up/steady/down, --think)."));
    auto &p = cl.parser();
    const QString defaultReadBuffer = lab::formatSize(client::ClientOptions{}.readBufferBytes);
    p.addPositionalArgument(QStringLiteral("url"),
                            QStringLiteral("http://host[:port]/path or https://..."));
    p.addOptions({
        {QStringLiteral("model"),
         QStringLiteral("closed (ab), duration (wrk), rate (wrk2) or ramp (faban). Default: "
                        "what the flags ask for (-d: duration, -R: rate, --ramp or --think: "
                        "ramp), else closed. A flag the model does not take is refused."),
         QStringLiteral("model")},
        {QStringLiteral("R"),
         loadFlagHelp("R", QStringLiteral("requests per second offered, whatever the server "
                                          "does (wrk2 -R).")),
         QStringLiteral("rate"), QStringLiteral("0")},
        {QStringLiteral("ramp"),
         loadFlagHelp("ramp", QStringLiteral("seconds of ramp-up/steady state/ramp-down (fhb "
                                             "-r 60/600/10); only the steady state counts.")),
         QStringLiteral("up/steady/down"), QStringLiteral("5/30/5")},
        {QStringLiteral("think"),
         loadFlagHelp("think", QStringLiteral("each user's wait: none, fixed:500ms, "
                                              "uniform:100ms-900ms, negexp:500ms, cycle:1s "
                                              "(between starts) or cycle-negexp:1s.")),
         QStringLiteral("spec"), QStringLiteral("none")},
        {QStringLiteral("d"),
         loadFlagHelp("d", QStringLiteral("seconds to run (wrk -d); alone, selects duration.")),
         QStringLiteral("seconds"), QStringLiteral("10")},
        {QStringLiteral("threads"),
         loadFlagHelp("threads",
                      QStringLiteral("client threads the connections are spread over (wrk -t).")),
         QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("n"), loadFlagHelp("n", QStringLiteral("requests to make (ab -n).")),
         QStringLiteral("requests"), QStringLiteral("1")},
        {QStringLiteral("c"),
         QStringLiteral("Requests in flight at once (ab -c); connections (wrk -c)."),
         QStringLiteral("concurrency"), QStringLiteral("1")},
        {QStringLiteral("k"),
         loadFlagHelp("k", QStringLiteral("keep connections alive (ab -k); duration and rate "
                                          "always do."))},
        {QStringLiteral("ab-reads"),
         QStringLiteral("Connect and read as ab does: connect() again once writable, 8 KiB per "
                        "recv() (unless --read-buffer), one recv() per wake-up, a closed "
                        "response read to its end. Reproduces ab's figures.")},
        {QStringLiteral("http1.0"),
         QStringLiteral("Send HTTP/1.0 requests, as ab does (with -k: Connection: keep-alive).")},
        {QStringLiteral("verify"),
         QStringLiteral("Compare every 200 body with the file under DIR its path names (the "
                        "server's root): wrong_content / wrong_length errors."),
         QStringLiteral("dir")},
        {QStringLiteral("s"),
         QStringLiteral("Seconds to wait for each connect and response (ab -s)."),
         QStringLiteral("seconds"), QStringLiteral("30")},
        {QStringLiteral("t"),
         loadFlagHelp("t", QStringLiteral("stop after this many seconds (ab -t); 0: no limit. "
                                          "wrk's -t is --threads.")),
         QStringLiteral("seconds"), QStringLiteral("0")},
        {QStringLiteral("read-buffer"),
         QStringLiteral("Bytes per read; 8K reads as ab does (default %1).").arg(defaultReadBuffer),
         QStringLiteral("size"), defaultReadBuffer},
        {QStringLiteral("json"), QStringLiteral("Print one JSON object instead of ab's report.")},
        {QStringLiteral("close-after"),
         QStringLiteral("Close each kept-alive connection after this many requests; 0: never."),
         QStringLiteral("k"), QStringLiteral("0")},
        {QStringLiteral("close-probability"),
         QStringLiteral("Close a kept-alive connection after a response with this probability."),
         QStringLiteral("p"), QStringLiteral("0")},
        {QStringLiteral("keepalive-think"),
         loadFlagHelp("keepalive-think",
                      QStringLiteral("wait between requests on a kept-alive connection "
                                     "(fixed:50ms, uniform:10ms-90ms, negexp:50ms).")),
         QStringLiteral("spec"), QStringLiteral("none")},
        {QStringLiteral("mix"),
         QStringLiteral("Spread requests over paths by weight instead of the URL's path: "
                        "/4K.bin:3,/1M.bin:1."),
         QStringLiteral("paths")},
        {QStringLiteral("samples"),
         QStringLiteral("Write the run's 100 ms time series (all threads summed) to FILE as CSV."),
         QStringLiteral("file")},
        {QStringLiteral("handshake"),
         QStringLiteral("https: keepalive (a handshake per connection; with -k and for duration, "
                        "rate), new (a full handshake per request, no keep-alive: ab without "
                        "-k) or resume (a connection per request, resuming the session)."),
         QStringLiteral("policy")},
        {QStringLiteral("cacert"),
         QStringLiteral("https: check the server's certificate against the CAs in FILE (PEM) "
                        "instead of the system's; a self-signed server's own certificate will do."),
         QStringLiteral("file")},
        {QStringLiteral("insecure"),
         QStringLiteral("https: do not check the server's certificate (curl -k).")},
        {QStringLiteral("sni"),
         QStringLiteral("https: the server name to send and check, instead of the URL's host."),
         QStringLiteral("name")},
        {QStringLiteral("tls-versions"),
         QStringLiteral("https: the TLS versions offered: 1.2, 1.3 or 1.2,1.3."),
         QStringLiteral("versions"), QStringLiteral("1.2,1.3")},
        {QStringLiteral("tls-ciphers"),
         QStringLiteral("https: OpenSSL's cipher names, TLS 1.2 ciphers and TLS_ 1.3 suites in "
                        "one list (ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_128_GCM_SHA256)."),
         QStringLiteral("list")},
        {QStringLiteral("tls-groups"),
         QStringLiteral("https: key-exchange groups offered, as X25519:P-256."),
         QStringLiteral("list")},
        {QStringLiteral("http2"),
         QStringLiteral("Speak HTTP/2: h2c with prior knowledge on http:// (h2load, curl "
                        "--http2-prior-knowledge), h2 by ALPN on https://. -c is then "
                        "connections, each kept and carrying -m streams.")},
        {QStringLiteral("m"),
         QStringLiteral("With --http2: requests in flight on each connection (h2load -m)."),
         QStringLiteral("streams"), QStringLiteral("1")},
        {QStringLiteral("h2-window"),
         QStringLiteral("With --http2: the receive window of each stream and of the "
                        "connection, from 64K-1 to 1G-1 (default 1G-1, h2load's)."),
         QStringLiteral("size")},
        {QStringLiteral("hlog"),
         QStringLiteral("Write the run's latencies per 100 ms to FILE as an HdrHistogram interval "
                        "log (values in microseconds), for HistogramLogProcessor and plotters."),
         QStringLiteral("file")},
    });
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    const QStringList urls = p.positionalArguments();
    if (urls.size() != 1)
        return cl.usageError(urls.isEmpty()
                                 ? QStringLiteral("a URL is required")
                                 : QStringLiteral("one URL only, got %1").arg(urls.size()),
                             err);
    client::ClientOptions options;
    QString error;
    if (!optionsFromUrl(urls.first(), &options, &error))
        return cl.usageError(error, err);
    LoadModel chosen = LoadModel::Closed;
    if (!chooseLoadModel(p, &chosen, &error))
        return cl.usageError(error, err);
    const QString model = QString::fromLatin1(client::loadModelName(chosen));
    const bool rate = chosen == LoadModel::Rate;
    const bool ramp = chosen == LoadModel::Ramp;
    const bool duration = chosen != LoadModel::Closed;
    client::RampClient::Phases phases;
    client::ThinkTime think;
    if (ramp) {
        const QStringList parts = p.value(QStringLiteral("ramp")).split(u'/');
        double seconds[3] = {};
        bool ok = parts.size() == 3;
        for (int i = 0; ok && i < 3; ++i)
            seconds[i] = parts[i].toDouble(&ok);
        if (!ok || seconds[0] < 0 || seconds[1] <= 0 || seconds[2] < 0)
            return cl.usageError(QStringLiteral("--ramp wants up/steady/down in seconds with a "
                                                "steady state, as 60/600/10, not '%1'")
                                     .arg(p.value(QStringLiteral("ramp"))),
                                 err);
        phases = {std::llround(seconds[0] * 1000), std::llround(seconds[1] * 1000),
                  std::llround(seconds[2] * 1000)};
        std::string why;
        if (!client::ThinkTime::parse(p.value(QStringLiteral("think")).toStdString(), &think, &why))
            return cl.usageError(QString::fromStdString(why), err);
    }
    qint64 requests = 1;
    qint64 concurrency = 1;
    qint64 timeout = 30;
    qint64 limit = 0;
    qint64 seconds = 10;
    qint64 threads = 1;
    namespace F = lab::SpecFields;
    if (!cl.number(F::requests, &requests, err) || !cl.number(F::concurrency, &concurrency, err) ||
        !cl.number(QStringLiteral("s"), 1, F::timeoutMs.high / 1000, &timeout, err) ||
        !cl.number(QStringLiteral("t"), 0, F::seconds.high, &limit, err) ||
        !cl.number(F::seconds, &seconds, err) || !cl.number(F::clientThreads, &threads, err))
        return exitUsage;
    bool rateOk = false;
    const double offered = p.value(QStringLiteral("R")).toDouble(&rateOk);
    if (rate && (!rateOk || !(offered > 0)))
        return cl.usageError(QStringLiteral("-R wants a rate above 0 requests per second, not '%1'")
                                 .arg(p.value(QStringLiteral("R"))),
                             err);
    if (const auto problem = lab::ClientRules::check({!duration, requests, concurrency, threads},
                                                     lab::FieldNaming::Flag))
        return cl.usageError(problem.text(lab::FieldNaming::Flag), err);
    quint64 readBuffer = 0;
    if (!lab::parseSize(p.value(QStringLiteral("read-buffer")), &readBuffer, &error) ||
        readBuffer > (64u << 20))
        return cl.usageError(QStringLiteral("--read-buffer wants a size from 1K to 64M, not '%1'")
                                 .arg(p.value(QStringLiteral("read-buffer"))),
                             err);
    options.readBufferBytes = static_cast<std::size_t>(readBuffer);
    options.abReads = p.isSet(QStringLiteral("ab-reads"));
    if (options.abReads && !p.isSet(QStringLiteral("read-buffer")))
        options.readBufferBytes = client::ClientOptions::abReadBytes;
    options.requests = static_cast<std::uint64_t>(requests);
    options.concurrency = static_cast<int>(concurrency);
    options.keepAlive = p.isSet(QStringLiteral("k"));
    if (!tlsFromFlags(p, options.keepAlive || duration || p.isSet(QStringLiteral("http2")),
                      &options, &error))
        return cl.usageError(error, err);
    options.http10 = p.isSet(QStringLiteral("http1.0"));
    if (!http2FromFlags(p, &options, &error))
        return cl.usageError(error, err);
    options.verifyRoot = p.value(QStringLiteral("verify")).toStdString();
    if (p.isSet(QStringLiteral("verify")) && !QFileInfo(p.value(QStringLiteral("verify"))).isDir())
        return cl.usageError(QStringLiteral("--verify wants the directory the server serves; "
                                            "'%1' is not a directory")
                                 .arg(p.value(QStringLiteral("verify"))),
                             err);
    options.timeoutMs = static_cast<int>(timeout * 1000);
    options.deadlineMs = limit * 1000;

    qint64 closeAfter = 0;
    if (!cl.number(QStringLiteral("close-after"), 0, 1'000'000'000, &closeAfter, err))
        return exitUsage;
    options.requestsPerConnection = static_cast<int>(closeAfter);
    bool probabilityOk = false;
    options.closeProbability =
        p.value(QStringLiteral("close-probability")).toDouble(&probabilityOk);
    if (!probabilityOk || options.closeProbability < 0 || options.closeProbability > 1)
        return cl.usageError(QStringLiteral("--close-probability wants a number from 0 to 1, "
                                            "not '%1'")
                                 .arg(p.value(QStringLiteral("close-probability"))),
                             err);
    {
        std::string why;
        if (!client::ThinkTime::parse(p.value(QStringLiteral("keepalive-think")).toStdString(),
                                      &options.keepAliveThink, &why) ||
            options.keepAliveThink.cycle)
            return cl.usageError(QStringLiteral("--keepalive-think: ") +
                                     QString::fromStdString(why.empty() ? "a cycle time does not "
                                                                          "apply here"
                                                                        : why),
                                 err);
    }
    for (const QString &entry : p.value(QStringLiteral("mix")).split(u',', Qt::SkipEmptyParts)) {
        bool weightOk = false;
        const double weight = entry.section(u':', -1).toDouble(&weightOk);
        const QString path = entry.section(u':', 0, -2);
        if (!entry.contains(u':') || !weightOk || !(weight > 0) || !path.startsWith(u'/'))
            return cl.usageError(QStringLiteral("--mix wants /path:weight,... with weights above "
                                                "0, not '%1'")
                                     .arg(entry),
                                 err);
        options.mix.push_back({path.toStdString(), weight});
    }
    client::SampleQueue samples;
    const QString samplesFile = p.value(QStringLiteral("samples"));
    const QString hlogFile = p.value(QStringLiteral("hlog"));
    if (!samplesFile.isEmpty() || !hlogFile.isEmpty())
        options.samples = &samples;
    const double startedAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    client::LoadResult result;
    std::vector<client::LoadResult> perThread;
    client::RateClient::Result rateRun;
    client::RampClient::Result rampRun;
    if (ramp) {
        client::RampClient client(options, static_cast<int>(threads), phases, think);
        rampRun = client.run();
        result = rampRun.steady;
    } else if (rate) {
        client::RateClient client(options, static_cast<int>(threads), seconds * 1000, offered);
        rateRun = client.run();
        result = rateRun.total;
        perThread = rateRun.perThread;
        options.keepAlive = true;
    } else if (duration) {
        client::DurationClient client(options, static_cast<int>(threads), seconds * 1000);
        auto run = client.run();
        result = std::move(run.total);
        perThread = std::move(run.perThread);
        options.keepAlive = true;
    } else {
        result = client::ClosedClient(options).run();
    }
    if (!result.fatalError.empty()) {
        err << "servelab-cli load: " << QString::fromStdString(result.fatalError) << '\n';
        return exitFailure;
    }
    const auto series = samples.drain();
    QString why;
    if ((!samplesFile.isEmpty() &&
         !lab::writeTextFile(samplesFile, formatSamplesCsv(series), &why)) ||
        (!hlogFile.isEmpty() &&
         !lab::writeTextFile(hlogFile, formatHdrLog(series, startedAt), &why))) {
        err << "servelab-cli load: " << why << '\n';
        return exitFailure;
    }
    // The report comes whatever happened (its errors by kind are the breakdown); a run where no
    // request succeeded then says why on stderr and exits 1.
    if (p.isSet(QStringLiteral("json")))
        out << formatJsonReport(options, result, model, perThread, rate ? &rateRun : nullptr,
                                ramp ? &rampRun : nullptr);
    else if (ramp)
        out << formatFabanReport(rampRun);
    else if (rate)
        out << formatWrk2Report(options, rateRun, double(seconds));
    else if (duration)
        out << formatWrkReport(options, result, perThread, double(seconds));
    else
        out << formatAbReport(options, result);
    out.flush();
    if (result.ok == 0) {
        const auto kind = result.dominantError();
        err << "servelab-cli load: no request succeeded: " << result.errorCount(kind) << " of "
            << result.completed << " failed with " << QString::fromUtf8(client::errorKindText(kind))
            << " (" << urls.first() << ")\n";
        return exitFailure;
    }
    return exitOk;
}

} // namespace servelab::cli
