// SPDX-License-Identifier: Apache-2.0
#pragma once

class QTextStream;

namespace servelab::server {
struct ServerOptions;
}

namespace servelab::cli {

class CommandLine;

// The built-in servers' options as command-line flags (design.md, issue 3 "Options"), shared by
// every command that starts a server.
void addServerOptions(CommandLine &commandLine);
// Fills *options from the parsed flags; false after printing a one-line usage error.
bool readServerOptions(CommandLine &commandLine, server::ServerOptions *options, QTextStream &err);

} // namespace servelab::cli
