#include "requesttarget.h"

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
    request = "GET " + options.path + " HTTP/1.1\r\nHost: " + host +
              "\r\nUser-Agent: ServeLab\r\nAccept: */*\r\n";
    if (!options.keepAlive)
        request += "Connection: close\r\n";
    request += "\r\n";
    return true;
}

} // namespace servelab::client
