#include "requesttarget.h"

#include <algorithm>
#include <cstring>
#include <netdb.h>

namespace servelab::client {

bool RequestTarget::prepare(const ClientOptions &options, std::string *error)
{
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

    std::string host = options.host;
    if (host.find(':') != std::string::npos)
        host = '[' + host + ']';
    if (options.port != 80)
        host += ':' + std::to_string(options.port);
    const auto head = [&](const std::string &path) {
        std::string text = "GET " + path + " HTTP/1.1\r\nHost: " + host +
                           "\r\nUser-Agent: ServeLab\r\nAccept: */*\r\n";
        if (!options.keepAlive)
            text += "Connection: close\r\n";
        return text + "\r\n";
    };
    request = head(options.path);
    double total = 0;
    for (const auto &entry : options.mix) {
        if (entry.path.empty() || entry.path[0] != '/' || !(entry.weight > 0)) {
            *error = "a URL mix entry needs a path starting with / and a weight above 0, not '" +
                     entry.path + "'";
            return false;
        }
        total += entry.weight;
        mixRequests.push_back(head(entry.path));
        mixWeights.push_back(total);
    }
    return true;
}

const std::string &RequestTarget::pick(std::mt19937_64 &random) const
{
    if (mixRequests.empty())
        return request;
    const double at = std::uniform_real_distribution<double>(0, mixWeights.back())(random);
    const auto found = std::upper_bound(mixWeights.begin(), mixWeights.end(), at);
    return mixRequests[std::min<std::size_t>(std::size_t(found - mixWeights.begin()),
                                             mixRequests.size() - 1)];
}

} // namespace servelab::client
