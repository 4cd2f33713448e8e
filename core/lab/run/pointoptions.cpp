// SPDX-License-Identifier: Apache-2.0
#include "pointoptions.h"

#include "lab/spec/docrootgenerator.h"
#include "lab/spec/sweepspec.h"
#include "lab/spec/transport.h"
#include "tls/selfsignedpair.h"

#include <QUrl>

namespace servelab::lab {

client::ClientOptions pointOptions(const SweepSpec &spec, quint64 size, const QString &host,
                                   quint16 port)
{
    client::ClientOptions options;
    options.host = host.toStdString();
    options.port = port;
    // A url target's files are under its path; the others serve the document root at /.
    QString folder = QStringLiteral("/");
    if (spec.isUrl()) {
        const QUrl url(spec.url());
        options.host = url.host().toStdString();
        options.port = quint16(url.port(port));
        folder = url.path(QUrl::FullyEncoded);
        if (!folder.endsWith(u'/'))
            folder += u'/';
    }
    options.path = (folder + DocRootGenerator::fileNameFor(size)).toStdString();
    for (int copy = 0; spec.filesPerSize > 1 && copy < spec.filesPerSize; ++copy)
        options.mix.push_back({(folder + DocRootGenerator::fileNameFor(size, copy)).toStdString()});
    options.requests = spec.requests;
    options.concurrency = spec.concurrency;
    options.keepAlive = spec.keepAlive;
    options.timeoutMs = spec.timeoutMs;
    options.requestsPerConnection = int(spec.closeAfter);
    options.closeProbability = spec.closeProbability;
    std::string why; // checked by SweepSpec::validate
    client::ThinkTime::parse(spec.keepAliveThink.toStdString(), &options.keepAliveThink, &why);
    options.http10 = spec.http10;
    options.abReads = spec.abReads;
    if (options.abReads)
        options.readBufferBytes = client::ClientOptions::abReadBytes;
    options.deadlineMs = spec.pointDeadlineMs;
    options.expectedBodyLength = size;
    Transport transport;
    QString unused; // checked by SweepSpec::validate
    Transport::parse(spec.transport, &transport, &unused);
    if (transport.https) {
        // The builtin servers' self-signed pair, made by the target as it started: its
        // certificate is the one CA the client trusts.
        options.tls.enabled = true;
        options.tls.policy = transport.policyFor(spec.keepAlive);
        if (options.tls.policy == client::HandshakePolicy::KeepAlive)
            options.keepAlive = true;
        std::string key;
        std::string problem;
        tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                    tls::SelfSignedPair::Key::EcdsaP256, &options.tls.caFile, &key,
                                    &problem);
    }
    if (transport.http2) {
        // The concurrency's requests in flight, `streams` to a kept connection (validated: a
        // whole number of connections).
        options.http2 = true;
        options.streams = std::max(1, spec.streams);
        options.concurrency = std::max(1, spec.concurrency / options.streams);
        options.keepAlive = true;
    }
    return options;
}

} // namespace servelab::lab
