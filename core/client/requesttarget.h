#pragma once

#include "clientoptions.h"

#include <string>
#include <sys/socket.h>

namespace servelab::client {

// Where the requests of a run go and what they say, worked out once per run.
struct RequestTarget
{
    sockaddr_storage address{};
    socklen_t addressLength = 0;
    std::string request; // the whole request head, sent as is for every request

    // Resolves options.host and builds the request; false with *error set when the host does
    // not resolve.
    bool prepare(const ClientOptions &options, std::string *error);
};

} // namespace servelab::client
