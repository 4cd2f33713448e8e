#pragma once

#include "clientoptions.h"

#include <random>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace servelab::client {

// Where the requests of a run go and what they say, worked out once per run.
struct RequestTarget
{
    sockaddr_storage address{};
    socklen_t addressLength = 0;
    std::string request; // the whole request head, sent as is for every request
    // With a URL mix: one request head per path, and the running sum of their weights.
    std::vector<std::string> mixRequests;
    std::vector<double> mixWeights;

    // Resolves options.host and builds the request; false with *error set when the host does
    // not resolve.
    bool prepare(const ClientOptions &options, std::string *error);
    // The request head to send next: `request`, or one of the mix drawn by weight.
    const std::string &pick(std::mt19937_64 &random) const;
};

} // namespace servelab::client
