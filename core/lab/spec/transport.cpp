// SPDX-License-Identifier: Apache-2.0
#include "transport.h"

namespace servelab::lab {

bool Transport::parse(const QString &text, Transport *out, QString *error)
{
    *out = Transport{};
    if (text == u"http")
        return true;
    if (text == u"h2c" || text == u"h2") {
        out->http2 = true;
        out->https = text == u"h2";
        if (out->https)
            out->policy = client::HandshakePolicy::KeepAlive; // h2 keeps its connections
        return true;
    }
    const QString scheme = text.section(u':', 0, 0);
    const QString policy = text.section(u':', 1);
    if (scheme == u"https") {
        out->https = true;
        if (!text.contains(u':'))
            return true;
        if (const auto p = client::handshakePolicyFromName(policy.toStdString())) {
            out->policy = *p;
            return true;
        }
    }
    *error = QStringLiteral("wants \"http\", \"https\" or \"https:keepalive\", \"https:new\", "
                            "\"https:resume\" (the handshake policy), \"h2c\" or \"h2\" (HTTP/2), "
                            "not \"%1\"")
                 .arg(text);
    return false;
}

QString Transport::protocol() const
{
    if (http2)
        return https ? QStringLiteral("h2") : QStringLiteral("h2c");
    return QStringLiteral("http/1.1");
}

client::HandshakePolicy Transport::policyFor(bool keepAlive) const
{
    if (policy)
        return *policy;
    return keepAlive ? client::HandshakePolicy::KeepAlive : client::HandshakePolicy::New;
}

} // namespace servelab::lab
