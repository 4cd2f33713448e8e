// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace servelab::tls {

// A self-signed certificate for "localhost" and 127.0.0.1 (and ::1), generated once into a
// folder and reused from then on, so that every run of the lab serves the same one and a client
// can trust it with --cacert. ECDSA P-256 by default (what nginx's examples and most sites
// use); RSA-2048 for the seeds' era.
class SelfSignedPair
{
public:
    enum class Key
    {
        EcdsaP256,
        Rsa2048,
    };

    // The folder the pairs go to: $XDG_CACHE_HOME/servelab/tls, else ~/.cache/servelab/tls.
    static std::string defaultFolder();
    // The pair of `key` in `folder`, generated now if it is not there (both files written to
    // temporary names and renamed, the key readable by its owner only). False with why.
    static bool ensure(const std::string &folder, Key key, std::string *certificate,
                       std::string *privateKey, std::string *error);
};

} // namespace servelab::tls
