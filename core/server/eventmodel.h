// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace servelab::server {

class ThreadedServer;
struct ServerOptions;

// An event model, declared once: its name, what it stands for, the transfers it takes, why it
// may not run here, and how to make its server. The mode names, their parsing and availability
// (servermode.cpp), createServer() and the window's mode lists all read these rows, so a new
// model is its ThreadedServer subclass and a row (eventmodel.cpp).
struct EventModel
{
    const char *name;
    const char *reproduces; // the real servers it stands for, in a few words
    // A model that takes one transfer only (nullptr: every one), and why, as "writes through
    // QTcpSocket, which has no": "the qt model writes through QTcpSocket, which has no mmap".
    const char *onlyTransfer;
    const char *onlyBecause;
    // Empty when it can run on this machine, else why not (nullptr: it runs everywhere).
    std::string (*whyNotHere)();
    std::unique_ptr<ThreadedServer> (*create)(const ServerOptions &options); // nullptr: not built
    // Each connection holds a thread while it is open: more clients than threads wait (seed
    // 002's 300 clients against 150), a ratio `run --smoke` keeps.
    bool threadPerConnection = false;
    // Its pool of `threads` grows and shrinks while it serves (live tuning); the others' threads
    // each own their connections.
    bool resizablePool = false;
    // Why it cannot serve https (nullptr: it can, through Connection and OpenSSL).
    const char *noTls = nullptr;

    bool takes(std::string_view transfer) const
    {
        return !onlyTransfer || transfer == onlyTransfer;
    }
};

std::span<const EventModel> eventModels();
const EventModel *findEventModel(std::string_view name); // nullptr: no such model
// Whether the server of `mode` ("poller+sendfile") can change its threads while it serves.
bool poolResizable(const std::string &mode);
// Why not, in one clause: "threads cannot change while the server runs in mode epoll+sendfile: …".
std::string threadsFixedReason(const std::string &mode);

} // namespace servelab::server
