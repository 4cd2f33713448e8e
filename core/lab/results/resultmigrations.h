// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QStringList>

namespace servelab::lab {

// The results database's schema, as SQL steps: entry i takes a database from version i to
// i + 1 (entry 0 creates it). ResultStore::migrate() runs them in a transaction each.
const QList<QStringList> &resultMigrations();

} // namespace servelab::lab
