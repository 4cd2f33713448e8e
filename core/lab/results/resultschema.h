// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QSqlError;

namespace servelab::lab {

// The results database's schema on one open connection (by its QSqlDatabase name): what a file is,
// checked before anything is written, and what it takes to bring it to this build's schema.
// ResultStore::open drives it; two programs opening one new database at once both get it, once (see
// prepare()).
class ResultSchema
{
public:
    // PRAGMA user_version of the schema this build writes (resultmigrations.cpp's steps).
    static constexpr int schemaVersion = 9;
    // How long a write waits for another program's lock.
    static constexpr int busyTimeoutMs = 3000;

    explicit ResultSchema(QString connection);

    int version() const;
    // Why the file must be left as it is (not SQLite, damaged, of a newer ServeLab, of something
    // else, or tables that are not this schema's), as a sentence with what to do; empty when
    // it may be used.
    QString refusal() const;
    // WAL and the connection's pragmas, then the migrations and the columns of ResultColumns'
    // rows the database lacks; false with *error.
    bool prepare(QString *error);

    // What went wrong, in words a user can act on: SQLite's own text, except for a lock held by
    // another program, which the busy timeout has already waited out.
    static QString sqlReason(const QSqlError &error);

private:
    QString missingColumns(int version) const;
    bool migrate(QString *error);
    bool addMissingColumns(QString *error);

    QString m_connection;
};

} // namespace servelab::lab
