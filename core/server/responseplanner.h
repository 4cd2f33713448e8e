// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "http/responsewriter.h"
#include "outgoingresponse.h"

#include <string>

namespace servelab::http {
struct Request;
}

namespace servelab::server {

struct LoopContext;

// What to send for one request and what happens to the connection after it, whatever the
// event model: the HTTP semantics (file lookup, 304, ranges, errors, keep-alive) in one place.
struct ResponsePlan
{
    OutgoingResponse out; // its head written for HTTP/1.1 unless the planner is in Fields form
    // The head as fields are listed from it (http::listResponseFields), and, in Fields form,
    // an error page's body, which HTTP/1.1 has in out.head after the head.
    http::ResponseHead head;
    std::string inlineBody;
    bool closeAfter = false;  // close once it is out
    bool lingerAfter = false; // half-close and read to EOF first (an error that ends framing)
};

class ResponsePlanner
{
public:
    explicit ResponsePlanner(LoopContext &context) : m_context(&context) {}
    void setContext(LoopContext &context) { m_context = &context; }

    // Http1: each plan's head is also written as HTTP/1.1 bytes into out.head. Fields: it is
    // not (HTTP/2 frames the head from plan.head; nothing is written twice).
    enum class HeadForm
    {
        Http1,
        Fields
    };
    void setHeadForm(HeadForm form) { m_form = form; }

    // The response to a parsed request; counts it in the context's stats.
    void plan(const http::Request &request, ResponsePlan *plan);
    // An error response (also for requests that could not be parsed).
    void planError(int status, bool keepAlive, bool http10, bool headOnly, ResponsePlan *plan);
    // The connection has taken --max-requests requests (HTTP/2 then sends GOAWAY).
    bool spent() const;

private:
    void planFile(const http::Request &request, http::OpenedFile file, ResponsePlan *plan);
    void planOptions(bool keepAlive, bool http10, ResponsePlan *plan);

    void writeHead(ResponsePlan *plan) const;

    LoopContext *m_context;
    HeadForm m_form = HeadForm::Http1;
    std::string m_path; // the normalized path of the request being planned, reused
    int m_requests = 0; // on this connection, for maxRequestsPerConnection
};

} // namespace servelab::server
