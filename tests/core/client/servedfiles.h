// SPDX-License-Identifier: Apache-2.0
#pragma once

// The client tests' server: a built-in server started over generated files of the given sizes.

#include "lab/spec/docrootgenerator.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QList>
#include <QString>

#include <memory>

namespace servelab::testing {

// Generates the files under `root`, then starts a server with `options` over them; null with
// *error set when either fails.
inline std::unique_ptr<server::Server> serveFiles(const QString &root, const QList<quint64> &sizes,
                                                  server::ServerOptions options, QString *error)
{
    if (!lab::DocRootGenerator::ensure(root, sizes, error))
        return nullptr;
    options.root = root.toStdString();
    std::string why;
    auto server = server::createServer(options, &why);
    if (!server || !server->start(&why)) {
        *error = QString::fromStdString(why);
        return nullptr;
    }
    return server;
}

} // namespace servelab::testing
