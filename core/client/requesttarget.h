// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <vector>

namespace servelab::client {

// One request a run makes: the whole request head, sent as is, and with
// ClientOptions::verifyRoot the body a 200 answer must carry.
struct PreparedRequest
{
    std::string head;
    std::string path; // HTTP/2's :path (the head says it for HTTP/1.1)
    std::optional<std::string_view> expectedBody;
};

// Where the requests of a run go and what they say, worked out once per run.
class RequestTarget
{
public:
    RequestTarget();
    ~RequestTarget();
    RequestTarget(const RequestTarget &) = delete;
    RequestTarget &operator=(const RequestTarget &) = delete;

    sockaddr_storage address{};
    socklen_t addressLength = 0;
    std::string authority; // the Host header's value, HTTP/2's :authority
    PreparedRequest request;
    // With a URL mix: one request per path, and the running sum of their weights.
    std::vector<PreparedRequest> mixRequests;
    std::vector<double> mixWeights;

    // Resolves options.host, builds the requests and maps the expected bodies; false with
    // *error set when the host does not resolve or an expected file cannot be read.
    bool prepare(const ClientOptions &options, std::string *error);
    // The request to send next: `request`, or one of the mix drawn by weight.
    const PreparedRequest &pick(std::mt19937_64 &random) const;

private:
    bool mapExpected(const ClientOptions &options, const std::string &path,
                     PreparedRequest *request, std::string *error);

    struct Files;
    std::unique_ptr<Files> m_files; // the mapped expected bodies
};

} // namespace servelab::client
