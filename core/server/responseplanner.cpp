// SPDX-License-Identifier: Apache-2.0
#include "responseplanner.h"

#include "http/byterange.h"
#include "http/documentroot.h"
#include "http/request.h"
#include "http/uripath.h"
#include "loopcontext.h"
#include "serverstats.h"

namespace servelab::server {

bool ResponsePlanner::spent() const
{
    const int max = m_context->options.maxRequestsPerConnection;
    return max > 0 && m_requests >= max;
}

void ResponsePlanner::plan(const http::Request &request, ResponsePlan *plan)
{
    const bool headOnly = request.method == http::Method::Head;
    const bool http10 = request.versionMinor == 0;
    if (request.contentLength > m_context->options.maxBodyBytes)
        return planError(413, false, http10, false, plan);
    const int max = m_context->options.maxRequestsPerConnection;
    const bool keepAlive = request.keepAlive && (max == 0 || ++m_requests < max);
    if (request.method == http::Method::Other)
        return planError(405, keepAlive, http10, false, plan);
    if (request.method == http::Method::Options && request.target == "*")
        return planOptions(keepAlive, http10, plan);
    if (!http::normalizePath(request.target, &m_path))
        return planError(400, false, http10, headOnly, plan);
    http::OpenedFile file = m_context->fileCache
                                ? m_context->fileCache->open(m_path, m_context->nowMs)
                                : m_context->root.openFile(m_path);
    if (file.status != 200)
        return planError(file.status, keepAlive, http10, headOnly, plan);
    if (request.method == http::Method::Options)
        return planOptions(keepAlive, http10, plan);
    http::Request effective = request;
    effective.keepAlive = keepAlive;
    planFile(effective, std::move(file), plan);
}

void ResponsePlanner::planFile(const http::Request &request, http::OpenedFile file,
                               ResponsePlan *plan)
{
    const bool headOnly = request.method == http::Method::Head;
    http::ResponseHead head;
    head.contentType = file.contentType;
    head.lastModified = file.modified;
    head.lastModifiedText = m_context->lastModified.format(file.modified);
    head.keepAlive = request.keepAlive;
    head.http10 = request.versionMinor == 0;
    head.acceptRanges = true;
    head.contentLength = file.size;
    head.completeLength = file.size;
    std::uint64_t offset = 0;
    if (request.ifModifiedSince >= 0 && file.modified <= request.ifModifiedSince) {
        head.status = 304; // RFC 9110 §13.1.3
        head.omitContentLength = true;
        head.contentLength = 0;
    } else if (!request.range.empty()) {
        const auto range = http::resolveByteRange(request.range, file.size);
        if (range.kind == http::ByteRange::Partial) {
            head.status = 206;
            head.range = http::ResponseHead::Range::Partial;
            head.rangeFirst = range.first;
            head.rangeLast = range.last;
            head.contentLength = range.length();
            offset = range.first;
        } else if (range.kind == http::ByteRange::Unsatisfiable) {
            head.status = 416;
            head.range = http::ResponseHead::Range::Unsatisfiable;
            head.contentLength = 0;
            head.contentType = {};
        }
    }
    OutgoingResponse &out = plan->out;
    out.clear();
    plan->inlineBody.clear();
    plan->head = head;
    writeHead(plan);
    out.offset = static_cast<off_t>(offset);
    out.remaining = (headOnly || head.status == 304 || head.status == 416) ? 0 : head.contentLength;
    out.file = std::move(file);
    plan->closeAfter = !request.keepAlive;
    plan->lingerAfter = false;
    m_context->stats.countResponse(head.status);
}

// OPTIONS (RFC 9110 §9.3.7), for the server (`*`) or a file that exists: what a static server
// does is GET, HEAD and OPTIONS, said in Allow, with no content (Content-Length: 0). Answered
// 200 rather than nginx's 405: the RFC gives OPTIONS a meaning a file server can honour.
void ResponsePlanner::planOptions(bool keepAlive, bool http10, ResponsePlan *plan)
{
    http::ResponseHead head;
    head.allow = true;
    head.keepAlive = keepAlive;
    head.http10 = http10;
    plan->out.clear();
    plan->inlineBody.clear();
    plan->head = head;
    writeHead(plan);
    plan->closeAfter = !keepAlive;
    plan->lingerAfter = false;
    m_context->stats.countResponse(200);
}

void ResponsePlanner::planError(int status, bool keepAlive, bool http10, bool headOnly,
                                ResponsePlan *plan)
{
    plan->out.clear();
    std::string body = http::errorBody(status);
    plan->head = http::errorHead(status, keepAlive, http10, body.size());
    if (m_form == HeadForm::Http1) {
        writeHead(plan);
        if (!headOnly)
            plan->out.head += body;
    } else {
        plan->inlineBody = headOnly ? std::string() : std::move(body);
    }
    plan->closeAfter = !keepAlive || http::statusClosesConnection(status);
    plan->lingerAfter = http::statusClosesConnection(status);
    m_context->stats.countResponse(status);
}

void ResponsePlanner::writeHead(ResponsePlan *plan) const
{
    if (m_form == HeadForm::Http1)
        http::appendResponseHead(plan->out.head, plan->head, m_context->date.now());
}

} // namespace servelab::server
