// SPDX-License-Identifier: Apache-2.0
#include "requesttarget.h"

#include "metrics/syscallcounter.h"

#include "http/documentroot.h"
#include "http/uripath.h"
#include "server/filemapping.h"

#include <algorithm>
#include <cstring>
#include <netdb.h>

namespace servelab::client {

struct RequestTarget::Files
{
    http::DocumentRoot root;
    std::vector<server::FileMapping> mappings;
};

RequestTarget::RequestTarget() = default;
RequestTarget::~RequestTarget() = default;

bool RequestTarget::prepare(const ClientOptions &options, std::string *error)
{
    // Every client prepares before it starts its clock: the syscall tracepoint its threads
    // count is registered here (tens of ms, once), not inside the measured run.
    metrics::SyscallCounter::tracepointId(nullptr);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    const std::string port = std::to_string(options.port);
    const int rc = getaddrinfo(options.host.c_str(), port.c_str(), &hints, &found);
    if (rc != 0 || !found) {
        *error = "cannot resolve '" + options.host + "': " + gai_strerror(rc);
        return false;
    }
    std::memcpy(&address, found->ai_addr, found->ai_addrlen);
    addressLength = found->ai_addrlen;
    freeaddrinfo(found);

    authority = options.host;
    if (authority.find(':') != std::string::npos)
        authority = '[' + authority + ']';
    if (options.port != (options.tls.enabled ? 443 : 80))
        authority += ':' + std::to_string(options.port);
    // HTTP/1.0 keeps a connection only when asked to (as ab -k asks); HTTP/1.1 closes it only
    // when told.
    const auto head = [&](const std::string &path) {
        std::string text = "GET " + path + (options.http10 ? " HTTP/1.0" : " HTTP/1.1") +
                           "\r\nHost: " + authority + "\r\n";
        if (options.abHeaders)
            text += "User-Agent: ServeLab\r\nAccept: */*\r\n";
        if (options.http10 && options.keepAlive)
            text += "Connection: keep-alive\r\n";
        else if (!options.http10 && !options.keepAlive)
            text += "Connection: close\r\n";
        return text + "\r\n";
    };
    if (!options.verifyRoot.empty()) {
        m_files = std::make_unique<Files>();
        std::string why;
        if (!m_files->root.open(options.verifyRoot, &why)) {
            *error = "cannot verify bodies against '" + options.verifyRoot + "': " + why;
            return false;
        }
    }
    request.head = head(options.path);
    request.path = options.path;
    if (options.mix.empty() && !mapExpected(options, options.path, &request, error))
        return false;
    double total = 0;
    for (const auto &entry : options.mix) {
        if (entry.path.empty() || entry.path[0] != '/' || !(entry.weight > 0)) {
            *error = "a URL mix entry needs a path starting with / and a weight above 0, not '" +
                     entry.path + "'";
            return false;
        }
        total += entry.weight;
        mixRequests.push_back({head(entry.path), entry.path, {}});
        if (!mapExpected(options, entry.path, &mixRequests.back(), error))
            return false;
        mixWeights.push_back(total);
    }
    return true;
}

// The file the path names under the verify root, found as the built-in server finds it.
bool RequestTarget::mapExpected(const ClientOptions &options, const std::string &path,
                                PreparedRequest *request, std::string *error)
{
    if (!m_files)
        return true;
    const auto relative = http::normalizedPath(path.substr(0, path.find('?')));
    http::OpenedFile file;
    if (relative)
        file = m_files->root.openFile(*relative);
    if (file.status != 200) {
        *error = "cannot verify " + path + ": no readable file for it under '" +
                 options.verifyRoot + "' (--verify wants the directory the server serves)";
        return false;
    }
    if (file.size == 0) {
        request->expectedBody = std::string_view();
        return true;
    }
    server::FileMapping mapping;
    if (!mapping.map(file.fd, file.size)) {
        *error = "cannot verify " + path + ": mapping it failed: " + std::strerror(errno);
        return false;
    }
    request->expectedBody = std::string_view(mapping.data(), file.size);
    m_files->mappings.push_back(std::move(mapping));
    return true;
}

const PreparedRequest &RequestTarget::pick(std::mt19937_64 &random) const
{
    if (mixRequests.empty())
        return request;
    const double at = std::uniform_real_distribution<double>(0, mixWeights.back())(random);
    const auto found = std::upper_bound(mixWeights.begin(), mixWeights.end(), at);
    return mixRequests[std::min<std::size_t>(std::size_t(found - mixWeights.begin()),
                                             mixRequests.size() - 1)];
}

} // namespace servelab::client
