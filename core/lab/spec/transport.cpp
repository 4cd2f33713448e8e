// SPDX-License-Identifier: Apache-2.0
#include "transport.h"

namespace servelab::lab {

bool Transport::parse(const QString &text, Transport *out, QString *error)
{
    *out = Transport{};
    if (text == u"http")
        return true;
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
                            "\"https:resume\" (the handshake policy), not \"%1\"")
                 .arg(text);
    return false;
}

client::HandshakePolicy Transport::policyFor(bool keepAlive) const
{
    if (policy)
        return *policy;
    return keepAlive ? client::HandshakePolicy::KeepAlive : client::HandshakePolicy::New;
}

} // namespace servelab::lab
