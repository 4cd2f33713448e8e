// SPDX-License-Identifier: Apache-2.0
#include "tlsprotocols.h"

#include "tlserror.h"

#include <openssl/ssl.h>

#include <memory>
#include <vector>

namespace servelab::tls {

namespace {

std::vector<std::string> split(std::string_view text, std::string_view separators)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find_first_of(separators, start);
        const std::string_view part = text.substr(
            start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (!part.empty())
            parts.emplace_back(part);
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return parts;
}

std::string joined(const std::vector<std::string> &parts, bool tls13)
{
    std::string text;
    for (const std::string &p : parts) {
        if ((p.rfind("TLS_", 0) == 0) != tls13)
            continue;
        if (!text.empty())
            text += ':';
        text += p;
    }
    return text;
}

// The lowest and highest of the versions named, as OpenSSL's constants; 0 when one is unknown.
bool versionRange(const std::string &versions, int *lowest, int *highest, std::string *bad)
{
    *lowest = *highest = 0;
    for (const std::string &v : split(versions, ", ")) {
        int version = 0;
        if (v == "1.2")
            version = TLS1_2_VERSION;
        else if (v == "1.3")
            version = TLS1_3_VERSION;
        if (!version) {
            *bad = v;
            return false;
        }
        *lowest = *lowest ? std::min(*lowest, version) : version;
        *highest = std::max(*highest, version);
    }
    if (!*lowest) {
        *bad = versions;
        return false;
    }
    return true;
}

} // namespace

std::string Protocols::tls12Ciphers() const
{
    return joined(split(ciphers, ":, "), false);
}

std::string Protocols::tls13Suites() const
{
    return joined(split(ciphers, ":, "), true);
}

std::string Protocols::check() const
{
    std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_method()),
                                                              &SSL_CTX_free);
    std::string error;
    if (!context)
        return takeErrors("cannot set up TLS");
    if (!applyTo(context.get(), &error))
        return error;
    return {};
}

bool Protocols::applyTo(SSL_CTX *context, std::string *error) const
{
    int lowest = 0;
    int highest = 0;
    std::string bad;
    if (!versionRange(versions, &lowest, &highest, &bad)) {
        *error = "TLS version '" + bad + "' is not one of 1.2, 1.3 (give one or both: 1.2,1.3)";
        return false;
    }
    SSL_CTX_set_min_proto_version(context, lowest);
    SSL_CTX_set_max_proto_version(context, highest);
    const std::string v12 = tls12Ciphers();
    const std::string v13 = tls13Suites();
    if (!v12.empty() && !SSL_CTX_set_cipher_list(context, v12.c_str())) {
        clearErrors();
        *error = "no TLS 1.2 cipher in '" + v12 + "' is known to OpenSSL (openssl ciphers -v)";
        return false;
    }
    if (!v13.empty() && !SSL_CTX_set_ciphersuites(context, v13.c_str())) {
        clearErrors();
        *error = "no TLS 1.3 suite in '" + v13 +
                 "' is known to OpenSSL (TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, "
                 "TLS_CHACHA20_POLY1305_SHA256)";
        return false;
    }
    if (!groups.empty() && !SSL_CTX_set1_groups_list(context, groups.c_str())) {
        clearErrors();
        *error = "the key-exchange groups '" + groups +
                 "' are not all known to OpenSSL (X25519, P-256, P-384, ...)";
        return false;
    }
    return true;
}

} // namespace servelab::tls
