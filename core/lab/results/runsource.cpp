// SPDX-License-Identifier: Apache-2.0
#include "runsource.h"

#include "resultbundle.h"
#include "resultstore.h"

#include <QFile>
#include <QFileInfo>

namespace servelab::lab {

namespace {

bool fromDatabase(const QString &path, qint64 id, RunSource *run, QString *error)
{
    ResultStore store;
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("no results database %1: run something first, or name one with "
                                "--db")
                     .arg(path);
        return false;
    }
    if (!store.open(path, error))
        return false;
    QString why;
    const auto experiments = store.experiments(&why);
    if (experiments.isEmpty()) {
        *error = QStringLiteral("%1 holds no run%2")
                     .arg(path, why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why));
        return false;
    }
    // Newest first or last: the largest id is the latest.
    const ResultStore::Experiment *chosen = nullptr;
    for (const auto &e : experiments)
        if (id ? e.id == id : (!chosen || e.id > chosen->id))
            chosen = &e;
    if (!chosen) {
        *error = QStringLiteral("%1 holds no run #%2 (servelab's Run history lists them)")
                     .arg(path)
                     .arg(id);
        return false;
    }
    run->label = QStringLiteral("#%1 %2").arg(chosen->id).arg(chosen->name);
    run->machine = chosen->machine;
    run->spec = chosen->spec;
    run->points = store.points(chosen->id, &why);
    if (!why.isEmpty()) {
        *error = QStringLiteral("cannot read run #%1 from %2: %3").arg(chosen->id).arg(path, why);
        return false;
    }
    return true;
}

} // namespace

bool RunSource::load(const QString &argument, const QString &defaultDatabase, RunSource *run,
                     QString *error)
{
    bool number = false;
    const qint64 id = argument.toLongLong(&number);
    if (number && id > 0)
        return fromDatabase(defaultDatabase, id, run, error);
    const qsizetype hash = argument.lastIndexOf(u'#');
    if (hash > 0) {
        const qint64 inFile = argument.mid(hash + 1).toLongLong(&number);
        if (number && inFile > 0)
            return fromDatabase(argument.left(hash), inFile, run, error);
    }
    if (!QFileInfo::exists(argument)) {
        *error = QStringLiteral("%1: no such run: give an experiment id, a bundle.json, a "
                                "database or DATABASE#ID")
                     .arg(argument);
        return false;
    }
    QFile file(argument);
    if (file.open(QIODevice::ReadOnly) && file.peek(16).startsWith("SQLite format 3"))
        return fromDatabase(argument, 0, run, error);
    ResultBundle bundle;
    if (!ResultBundle::readFile(argument, &bundle, error))
        return false;
    run->label = argument;
    run->machine = bundle.machine;
    run->spec = bundle.spec;
    run->points = bundle.points;
    return true;
}

} // namespace servelab::lab
